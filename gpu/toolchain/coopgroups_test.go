package toolchain_test

import (
	"context"
	"errors"
	"math/bits"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/analysis"
	"github.com/kernelscope/kernelscope/gpu/launch"
	"github.com/kernelscope/kernelscope/gpu/report"
)

const coopSrc = `#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;
template <int N> __device__ void tiles(cg::thread_block b, const int *in, int *out) {
  cg::thread_block_tile<N> t = cg::tiled_partition<N>(b);
  int i = b.thread_rank();
  int v = in[i];
  int *o = out + i * 16;
  o[0] = t.thread_rank();
  o[1] = t.size() + 100 * t.num_threads();
  o[2] = t.meta_group_rank();
  o[3] = t.meta_group_size();
  o[4] = t.shfl(v, N - 1);
  o[5] = t.shfl_up(v, 1);
  o[6] = t.shfl_down(v, 1);
  o[7] = t.shfl_xor(v, N / 2);
  o[8] = t.ballot(v & 1);
  o[9] = t.any(v == 5) + 2 * t.all(v >= 0) + 4 * t.all(v != 5);
  o[10] = t.match_any(v & 3);
  o[11] = cg::reduce(t, v, cg::plus<int>());
  o[12] = cg::reduce(t, v, cg::greater<int>()) * 1000 + cg::reduce(t, v, cg::less<int>());
  o[13] = cg::inclusive_scan(t, v);
  o[14] = cg::exclusive_scan(t, v, cg::bit_xor<int>());
  t.sync();
  int pred;
  unsigned all = t.match_all(v / N, pred);
  o[15] = cg::reduce(t, v, cg::bit_or<int>()) + 1000 * cg::reduce(t, v, cg::bit_and<int>()) + (int)(all != 0) * 100000 + pred * 1000000;
}
#define TILE_KERNEL(N) \
  __global__ void tile##N(const int *in, int *out) { tiles<N>(cg::this_thread_block(), in, out); }
TILE_KERNEL(1)
TILE_KERNEL(2)
TILE_KERNEL(4)
TILE_KERNEL(8)
TILE_KERNEL(16)
TILE_KERNEL(32)

__global__ void groups(const int *in, float *f, int *o) {
  cg::thread_block b = cg::this_thread_block();
  b.sync();
  unsigned int i = b.thread_rank();
  if (i == 0) { f[0] = b.size(); f[1] = b.group_index().x; f[2] = b.dim_threads().x; f[3] = b.thread_index().x; f[4] = b.num_threads(); }
  if (in[i] % 3 != 0) {
    cg::coalesced_group c = cg::coalesced_threads();
    f[16 + i] = c.thread_rank() + 100 * c.size() + 10000 * cg::reduce(c, in[i], cg::plus<int>());
    o[i] = c.shfl(in[i], 0) + 1000 * c.ballot(in[i] & 1) + 100000 * cg::inclusive_scan(c, 1);
    c.sync();
  }
  cg::grid_group g = cg::this_grid();
  f[200 + g.thread_rank()] = g.size() + 1000 * g.num_blocks() + 10000 * g.block_rank();
  g.sync();
  cg::thread_group t16 = cg::tiled_partition(b, 16);
  o[100 + i] = t16.thread_rank() + 100 * t16.size();
  cg::thread_block_tile<32> w = cg::tiled_partition<32>(b);
  cg::thread_block_tile<4> q = cg::tiled_partition<4>(w);
  o[200 + i] = q.meta_group_rank() + 100 * q.meta_group_size() + 10000 * q.thread_rank();
  cg::thread_group any = w;
  o[300 + i] = any.thread_rank() + 100 * any.size();
  any.sync();
}

__global__ void copy(const float *in, float *out, int n) {
  extern __shared__ float s[];
  __shared__ float t[256];
  cg::thread_block b = cg::this_thread_block();
  cg::memcpy_async(b, t, in, sizeof(float) * n);
  cg::wait(b);
  out[b.thread_rank()] = t[(b.thread_rank() + 1) % n] * 2.0f;
}

__global__ void gridsync(float *a) {
  cg::grid_group g = cg::this_grid();
  a[g.thread_rank()] = 1.0f;
  g.sync();  // GRIDSYNC
  a[g.thread_rank()] += 1.0f;
}
`

// TestCooperativeGroupsTiles: every tile size's rank, size, shuffles, votes,
// matches, reductions and scans against a Go model of a block of 64 threads.
func TestCooperativeGroupsTiles(t *testing.T) {
	const B = 64
	in := make([]int, B)
	for i := range in {
		in[i] = i
	}
	for _, n := range []int{1, 2, 4, 8, 16, 32} {
		rep := mustRun(t, coopSrc, "tile"+itoa(n), 1, B, buf("arange", B, "i32"), buf("zeros", 16*B, "i32"))
		out := i32s(output(t, rep, 1))
		for i := 0; i < B; i++ {
			r, base := i%n, i-i%n
			tile := in[base : base+n]
			sum, mx, mn, or, and := 0, tile[0], tile[0], 0, -1
			var ballot, match uint32
			anyFive, allNot5 := 0, 1
			for j, v := range tile {
				sum += v
				mx, mn = max(mx, v), min(mn, v)
				or |= v
				and &= v
				if v&1 == 1 {
					ballot |= 1 << j
				}
				if v&3 == in[i]&3 {
					match |= 1 << j
				}
				if v == 5 {
					anyFive, allNot5 = 1, 0
				}
			}
			incl, excl := 0, 0
			for j := 0; j <= r; j++ {
				incl += tile[j]
				if j < r {
					excl ^= tile[j]
				}
			}
			up, down := in[i], in[i]
			if r >= 1 {
				up = in[i-1]
			}
			if r+1 < n {
				down = in[i+1]
			}
			allSame := 1 // v / n is the same for the whole tile
			want := []int{r, n + 100*n, i / n, B / n, tile[n-1], up, down, in[base+(r^(n/2))], int(ballot),
				anyFive + 2 + 4*allNot5, int(match), sum, mx*1000 + mn, incl, excl, or + 1000*and + allSame*100000 + 1000000}
			if n == 1 {
				want[7] = in[i] // shfl_xor(v, 0)
			}
			for k, w := range want {
				if uint32(out[16*i+k]) != uint32(w) {
					t.Errorf("tile %d thread %d field %d = %d, want %d", n, i, k, out[16*i+k], w)
				}
			}
		}
	}
}

// runCoop runs kernel (sm_80, clang) in a cooperative launch when coop is set.
func runCoop(t *testing.T, kernel string, grid, block int, coop bool, args ...launch.Arg) (*report.Report, error) {
	t.Helper()
	needClang(t)
	return analysis.Run(context.Background(), analysis.Request{
		Source: []byte(coopSrc), SourceFile: "cell.cu", Arch: "sm_80", Compiler: "clang",
		Launch: &launch.Launch{Kernel: kernel, Args: args, Cooperative: coop}, Grid: [3]int{grid, 1, 1}, Block: [3]int{block, 1, 1},
	})
}

// TestCooperativeGroupsGroups: thread_block, coalesced_group, grid_group on one
// block (a cooperative launch: grid.sync() needs one), tiled_partition(block, n),
// tiles of tiles and thread_group values.
func TestCooperativeGroupsGroups(t *testing.T) {
	const B = 64
	rep, err := runCoop(t, "groups", 1, B, true, buf("arange", B, "i32"), buf("zeros", 200+B, "f32"), buf("zeros", 400, "i32"))
	if err != nil {
		t.Fatal(err)
	}
	f := f32s(output(t, rep, 1))
	o := i32s(output(t, rep, 2))
	for k, w := range []float32{B, 0, B, 0, B} {
		if f[k] != w {
			t.Errorf("f[%d] = %v, want %v", k, f[k], w)
		}
	}
	for i := 0; i < B; i++ {
		warp := i / 32 * 32
		var mask uint32
		for l := 0; l < 32; l++ {
			if (warp+l)%3 != 0 {
				mask |= 1 << l
			}
		}
		lane := i % 32
		if i%3 != 0 {
			rank := bits.OnesCount32(mask & (1<<lane - 1))
			size := bits.OnesCount32(mask)
			sum, first := 0, -1
			var ballot uint32
			for r, m := 0, mask; m != 0; m &= m - 1 {
				l := bits.TrailingZeros32(m)
				sum += warp + l
				if first < 0 {
					first = warp + l
				}
				if (warp+l)&1 == 1 {
					ballot |= 1 << r
				}
				r++
			}
			if want := float32(rank + 100*size + 10000*sum); f[16+i] != want {
				t.Errorf("coalesced thread %d: %v, want %v", i, f[16+i], want)
			}
			if want := first + 1000*int(ballot) + 100000*(rank+1); int(o[i]) != want {
				t.Errorf("coalesced shfl/ballot/scan thread %d: %d, want %d", i, o[i], want)
			}
		} else if f[16+i] != 0 || o[i] != 0 {
			t.Errorf("thread %d is not in the coalesced group but wrote %v %d", i, f[16+i], o[i])
		}
		if want := float32(B + 1000); f[200+i] != want {
			t.Errorf("grid thread %d: %v, want %v", i, f[200+i], want)
		}
		if want := i%16 + 1600; int(o[100+i]) != want {
			t.Errorf("tiled_partition(b, 16) thread %d: %d, want %d", i, o[100+i], want)
		}
		if want := lane/4 + 800 + 10000*(i%4); int(o[200+i]) != want {
			t.Errorf("tile<4> of tile<32> thread %d: %d, want %d", i, o[200+i], want)
		}
		if want := lane + 3200; int(o[300+i]) != want {
			t.Errorf("thread_group of tile<32> thread %d: %d, want %d", i, o[300+i], want)
		}
	}
}

// TestCooperativeGroupsMemcpyAsync: memcpy_async + wait copy into shared memory.
func TestCooperativeGroupsMemcpyAsync(t *testing.T) {
	const B = 96
	rep := mustRun(t, coopSrc, "copy", 1, B, buf("arange", B, "f32"), buf("zeros", B, "f32"), scalar("96"))
	for i, v := range f32s(output(t, rep, 1)) {
		if want := float32((i+1)%B) * 2; v != want {
			t.Errorf("out[%d] = %v, want %v", i, v, want)
		}
	}
}

// TestGridSync: grid.sync() synchronises the blocks of a cooperative launch (1 and 4
// blocks); in a launch that is not cooperative it traps, as on a GPU, with a message
// naming its line.
func TestGridSync(t *testing.T) {
	for _, n := range []int{1, 4} {
		rep, err := runCoop(t, "gridsync", n, 32, true, buf("zeros", 32*n, "f32"))
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range f32s(output(t, rep, 0)) {
			if v != 2 {
				t.Fatalf("%d blocks: a[%d] = %v, want 2", n, i, v)
			}
		}
	}
	rep, err := runKernel(t, coopSrc, "gridsync", 4, 32, buf("zeros", 128, "f32"))
	var f *analysis.Failure
	if !errors.As(err, &f) || f.Err.Kind != "trap" {
		t.Fatalf("want a trap failure, got %v", err)
	}
	// Blocks run interleaved (the kernel spins on ordered loads), so the first
	// warp to trap may be in a block other than the one that prints the line:
	// the error names the cause either way.
	if said := err.Error() + rep.Stdout; !strings.Contains(said, "cooperative>>>") || !strings.Contains(said, "grid_group::sync()") {
		t.Errorf("error and stdout %q do not say that grid_group::sync() needs a cooperative launch", said)
	}
	rep, err = runKernel(t, coopSrc, "gridsync", 1, 32, buf("zeros", 32, "f32"))
	if !errors.As(err, &f) || f.Err.Kind != "trap" {
		t.Fatalf("one block: want a trap failure, got %v", err)
	}
	want := "cell.cu:" + itoa(lineOf(t, coopSrc, "// GRIDSYNC")) + ": grid_group::sync() needs a cooperative launch"
	if !strings.Contains(rep.Stdout, want) {
		t.Errorf("stdout %q does not contain %q", rep.Stdout, want)
	}
}
