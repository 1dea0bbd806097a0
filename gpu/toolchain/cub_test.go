package toolchain_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/analysis"
	"github.com/kernelscope/kernelscope/gpu/launch"
	"github.com/kernelscope/kernelscope/gpu/toolchain"
)

// needCUB skips when Debian's libcub-dev is not installed (CI installs it: scripts/deps.sh).
func needCUB(t *testing.T) {
	t.Helper()
	needClang(t)
	if _, err := os.Stat("/usr/include/cub/cub.cuh"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("libcub-dev is not installed (scripts/deps.sh installs it)")
		}
		t.Skip("libcub-dev is not installed")
	}
}

const cubSrc = `#include <cub/cub.cuh>
#define B 128
#define IPT 4
__global__ void block_reduce(const int *in, int *out) {
  typedef cub::BlockReduce<int, B> R;
  __shared__ typename R::TempStorage tmp;
  int v = in[blockIdx.x * B + threadIdx.x];
  int s = R(tmp).Sum(v);
  __syncthreads();
  int m = R(tmp).Reduce(v, cub::Max());
  if (threadIdx.x == 0) { out[2 * blockIdx.x] = s; out[2 * blockIdx.x + 1] = m; }
}
__global__ void block_scan(const int *in, int *inc, int *exc) {
  typedef cub::BlockScan<int, B> S;
  __shared__ typename S::TempStorage tmp;
  int i = blockIdx.x * B + threadIdx.x;
  int a, b, total;
  S(tmp).InclusiveSum(in[i], a);
  __syncthreads();
  S(tmp).ExclusiveSum(in[i], b, total);
  inc[i] = a;
  exc[i] = b;
  if (threadIdx.x == 0) exc[gridDim.x * B + blockIdx.x] = total;
}
__global__ void warp_reduce(const float *in, float *out) {
  typedef cub::WarpReduce<float> W;
  __shared__ typename W::TempStorage tmp[B / 32];
  int w = threadIdx.x / 32;
  float s = W(tmp[w]).Sum(in[blockIdx.x * B + threadIdx.x]);
  if (threadIdx.x % 32 == 0) out[blockIdx.x * (B / 32) + w] = s;
}
__global__ void load_store(const int *in, int *out) {
  typedef cub::BlockLoad<int, B, IPT, cub::BLOCK_LOAD_WARP_TRANSPOSE> L;
  typedef cub::BlockStore<int, B, IPT, cub::BLOCK_STORE_WARP_TRANSPOSE> St;
  __shared__ union { typename L::TempStorage l; typename St::TempStorage s; } tmp;
  int items[IPT];
  int off = blockIdx.x * B * IPT;
  L(tmp.l).Load(in + off, items);
  for (int k = 0; k < IPT; k++) items[k] = items[k] * 3 + threadIdx.x * IPT + k;
  __syncthreads();
  St(tmp.s).Store(out + off, items);
}
__global__ void radix_sort(const unsigned *in, unsigned *out) {
  typedef cub::BlockLoad<unsigned, B, IPT, cub::BLOCK_LOAD_TRANSPOSE> L;
  typedef cub::BlockRadixSort<unsigned, B, IPT> R;
  typedef cub::BlockStore<unsigned, B, IPT, cub::BLOCK_STORE_DIRECT> St;
  __shared__ union { typename L::TempStorage l; typename R::TempStorage r; typename St::TempStorage s; } tmp;
  unsigned keys[IPT];
  int off = blockIdx.x * B * IPT;
  L(tmp.l).Load(in + off, keys);
  __syncthreads();
  R(tmp.r).SortBlockedToStriped(keys);
  __syncthreads();
  cub::StoreDirectStriped<B>(threadIdx.x, out + off, keys);
}
`

func runCUB(t *testing.T, kernel, dir string, grid int, args ...launch.Arg) [][]byte {
	t.Helper()
	rep, err := analysis.Run(context.Background(), analysis.Request{
		Source: []byte(cubSrc), SourceFile: "cell.cu", Arch: "sm_80", Compiler: "clang", BaseDir: dir,
		Launch: &launch.Launch{Kernel: kernel, Args: args}, Grid: [3]int{grid, 1, 1}, Block: [3]int{128, 1, 1},
	})
	if err != nil {
		t.Fatalf("%s: %v", kernel, err)
	}
	var out [][]byte
	for _, o := range rep.Outputs {
		out = append(out, o.Bytes)
	}
	return out
}

// TestCUBBlockPrimitives: CUB's BlockReduce, BlockScan, WarpReduce, BlockLoad,
// BlockStore and BlockRadixSort (Debian's libcub-dev) compile on the clang path, run
// in the simulator and give the sums, prefix sums and sorted order Go computes.
func TestCUBBlockPrimitives(t *testing.T) {
	t.Parallel() // long and independent: runs beside the package's other long tests
	needCUB(t)
	const grid, B, IPT = 3, 128, 4
	r := rand.New(rand.NewPCG(5, 6))
	ints := make([]int32, grid*B*IPT)
	var ib []byte
	for i := range ints {
		ints[i] = int32(r.IntN(2001) - 1000)
		ib = appendU32(ib, uint32(ints[i]))
	}
	keys := make([]uint32, grid*B*IPT)
	var kb []byte
	for i := range keys {
		keys[i] = r.Uint32()
		if i%7 == 0 {
			keys[i] = keys[i] % 16 // duplicates and small keys
		}
		kb = appendU32(kb, keys[i])
	}
	var fb []byte
	floats := make([]float32, grid*B)
	for i := range floats {
		floats[i] = float32(r.IntN(64)) / 4 // exact sums in any order
		fb = appendU32(fb, math.Float32bits(floats[i]))
	}
	dir := t.TempDir()
	writeFile(t, dir+"/i.bin", ib)
	writeFile(t, dir+"/k.bin", kb)
	writeFile(t, dir+"/f.bin", fb)
	file := func(name, typ string) launch.Arg {
		return launch.Arg{Init: &launch.Init{Func: "file", Path: name, Type: typ}}
	}

	t.Run("BlockReduce", func(t *testing.T) {
		out := i32s(runCUB(t, "block_reduce", dir, grid, file("i.bin", "i32"), buf("zeros", 2*grid, "i32"))[1])
		for b := 0; b < grid; b++ {
			blk := ints[b*B : (b+1)*B]
			var s int32
			for _, v := range blk {
				s += v
			}
			if out[2*b] != s || out[2*b+1] != slices.Max(blk) {
				t.Errorf("block %d: sum %d max %d, want %d %d", b, out[2*b], out[2*b+1], s, slices.Max(blk))
			}
		}
	})
	t.Run("BlockScan", func(t *testing.T) {
		o := runCUB(t, "block_scan", dir, grid, file("i.bin", "i32"), buf("zeros", grid*B, "i32"), buf("zeros", grid*B+grid, "i32"))
		inc, exc := i32s(o[1]), i32s(o[2])
		for b := 0; b < grid; b++ {
			var s int32
			for k := 0; k < B; k++ {
				i := b*B + k
				if exc[i] != s {
					t.Fatalf("exclusive sum [%d] = %d, want %d", i, exc[i], s)
				}
				s += ints[i]
				if inc[i] != s {
					t.Fatalf("inclusive sum [%d] = %d, want %d", i, inc[i], s)
				}
			}
			if exc[grid*B+b] != s {
				t.Errorf("block aggregate %d = %d, want %d", b, exc[grid*B+b], s)
			}
		}
	})
	t.Run("WarpReduce", func(t *testing.T) {
		out := f32s(runCUB(t, "warp_reduce", dir, grid, file("f.bin", "f32"), buf("zeros", grid*B/32, "f32"))[1])
		for w := 0; w < grid*B/32; w++ {
			var s float32
			for _, v := range floats[w*32 : (w+1)*32] {
				s += v
			}
			if out[w] != s {
				t.Errorf("warp %d: sum %g, want %g", w, out[w], s)
			}
		}
	})
	t.Run("BlockLoadStore", func(t *testing.T) {
		out := i32s(runCUB(t, "load_store", dir, grid, file("i.bin", "i32"), buf("zeros", grid*B*IPT, "i32"))[1])
		// blocked arrangement: thread t holds items t*IPT ... t*IPT+IPT-1 of its block
		for i, v := range out {
			want := ints[i]*3 + int32(i%(B*IPT))
			if v != want {
				t.Fatalf("out[%d] = %d, want %d", i, v, want)
			}
		}
	})
	t.Run("BlockRadixSort", func(t *testing.T) {
		out := u32s(runCUB(t, "radix_sort", dir, grid, file("k.bin", "u32"), buf("zeros", grid*B*IPT, "u32"))[1])
		for b := 0; b < grid; b++ {
			want := slices.Clone(keys[b*B*IPT : (b+1)*B*IPT])
			slices.Sort(want)
			if got := out[b*B*IPT : (b+1)*B*IPT]; !slices.Equal(got, want) {
				t.Errorf("block %d not sorted: first %v, want %v", b, got[:8], want[:8])
			}
		}
	})
}

// TestCUBMissingSaysInstall: a CUB header that cannot be found names the package.
func TestCUBMissingSaysInstall(t *testing.T) {
	needClang(t)
	_, err := toolchain.Compile(context.Background(), toolchain.Request{Source: "#include <cub/no_such_header.cuh>\n__global__ void k() {}\n",
		File: "cell.cu", Arch: "sm_80", Compiler: "clang"})
	if err == nil || !strings.Contains(err.Error(), "install libcub-dev") || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("want an error at line 1 saying install libcub-dev, got %v", err)
	}
}

// TestDeviceMallocTraps: device malloc (declared for CUB and <new>) says it is not
// simulated and traps.
func TestDeviceMallocTraps(t *testing.T) {
	src := "__global__ void k(int *o) { int *p = (int *)malloc(16); o[0] = p != 0; free(p); }\n"
	rep, err := runKernel(t, src, "k", 1, 1, buf("zeros", 1, "i32"))
	var f *analysis.Failure
	if !errors.As(err, &f) || f.Err.Kind != "trap" {
		t.Fatalf("want a trap failure, got %v", err)
	}
	if rep == nil || !strings.Contains(rep.Stdout, "device malloc is not simulated") {
		t.Errorf("stdout does not say device malloc is not simulated: %+v", rep)
	}
}
