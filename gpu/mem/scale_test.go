package mem

import (
	"encoding/json"
	"math"
	"os"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/arch"
)

// The H200 measured these launches at scale (scale_sm90.json). Their global
// address streams follow from the kernel sources alone, so the cache model can
// be run on them without the simulator: blocks in index order, round-robin over
// the SMs, each warp's accesses in program order. The hardware interleaves
// thousands of warps and merges in-flight misses, which this order does not
// reproduce; the tolerances below say how close a timing-free model gets.

// scaleStream emits the warp accesses of one launch.
type scaleStream struct {
	name   string
	blocks int
	emit   func(block int, do func(a *Access))
}

// Buffers are separate cudaMalloc allocations; place them far apart, 2 MB aligned.
const (
	bufA = 0x7f00_0000_0000
	bufB = bufA + 1<<34
	bufC = bufB + 1<<34
)

// lanes fills a with 32 lanes at base + elem*(first+lane*stride).
func lanes(a *Access, kind Kind, elem int, base uint64, first, stride int) {
	a.Kind, a.Bytes, a.Mask, a.Space = kind, elem, 0xffffffff, Global
	for l := 0; l < 32; l++ {
		a.Addr[l] = base + uint64(elem*(first+l*stride))
	}
}

func scaleStreams() []scaleStream {
	return []scaleStream{
		{"vector_add_16M", 65536, elementwise(4, 1, 0, bufC, bufA, bufB)},      // c[i] = a[i] + b[i]
		{"strided_copy_stride1_4M", 16384, elementwise(4, 1, 0, bufB, bufA)},   // out[i] = in[i]
		{"strided_copy_stride32_4M", 16384, elementwise(4, 32, 0, bufB, bufA)}, // out[i] = in[32*i]
		{"offset_copy_4M", 16384, elementwise(4, 1, 1, bufB, bufA)},            // out[i] = in[i+1]
		{"transpose_naive_4096", 128 * 128, func(b int, do func(*Access)) { // 32x8 threads, 4 rows each way
			var a Access
			bx, by := b%128, b/128
			for w := 0; w < 8; w++ {
				for j := 0; j < 32; j += 8 {
					lanes(&a, Load, 4, bufB, (by*32+w+j)*4096+bx*32, 1) // in[(y+j)*width + x]
					do(&a)
				}
			}
			for w := 0; w < 8; w++ {
				for j := 0; j < 32; j += 8 {
					lanes(&a, Store, 4, bufA, (bx*32+w+j)*4096+by*32, 1) // out[(y+j)*height + x]
					do(&a)
				}
			}
		}},
		{"saxpy_16M", 1056, func(b int, do func(*Access)) { // grid-stride y[i] = a*x[i] + y[i]
			axpy := elementwise(4, 1, 0, bufB, bufA, bufB)
			for b0 := b; b0*256 < 1<<24; b0 += 1056 { // block b does the elements of blocks b, b+1056, ...
				axpy(b0, do)
			}
		}},
		{"daxpy_8M", 32768, elementwise(8, 1, 0, bufB, bufA, bufB)}, // y[i] = a*x[i] + y[i], doubles
		{"reduce_interleaved_16M", 65536, reduceStream},
		{"reduce_sequential_16M", 65536, reduceStream},
		{"reduce_warp_shfl_16M", 65536, reduceStream},
		{"histogram256_16M", 1056, func(b int, do func(*Access)) { // grid-stride byte loads, then 256 bins
			var a Access
			for i0 := b * 256; i0 < 1<<24; i0 += 1056 * 256 {
				for w := 0; w < 8; w++ {
					lanes(&a, Load, 1, bufA, i0+w*32, 1)
					do(&a)
				}
			}
			for w := 0; w < 8; w++ { // atomicAdd(&bins[b], local[b]): every bin is non-zero
				lanes(&a, Reduction, 4, bufB, w*32, 1)
				do(&a)
			}
		}},
		{"matmul_tiled_256", 16 * 16, matmulStream(256)},
		{"matmul_tiled_1024", 64 * 64, matmulStream(1024)},
		{"scan_block_4M", 8192, func(b int, do func(*Access)) { // 512 threads: load in[base+tid], store out[base+tid]
			var a Access
			for w := 0; w < 16; w++ {
				lanes(&a, Load, 4, bufA, b*512+w*32, 1)
				do(&a)
			}
			for w := 0; w < 16; w++ {
				lanes(&a, Store, 4, bufB, b*512+w*32, 1)
				do(&a)
			}
		}},
	}
}

// elementwise is a kernel of 256-thread blocks in which thread i reads element
// mul*i+add of each buffer of loads, in order, then writes element i of store
// (elements of elem bytes).
func elementwise(elem, mul, add int, store uint64, loads ...uint64) func(b int, do func(*Access)) {
	return func(b int, do func(*Access)) {
		var a Access
		for w := 0; w < 8; w++ {
			i := b*256 + w*32
			for _, in := range loads {
				lanes(&a, Load, elem, in, mul*i+add, mul)
				do(&a)
			}
			lanes(&a, Store, elem, store, i, 1)
			do(&a)
		}
	}
}

// reduceStream is the global traffic of the three reductions (256 threads a
// block): in[i] per warp, then thread 0 stores out[blockIdx.x].
func reduceStream(b int, do func(*Access)) {
	var a Access
	for w := 0; w < 8; w++ {
		lanes(&a, Load, 4, bufA, b*256+w*32, 1)
		do(&a)
	}
	lanes(&a, Store, 4, bufB, b, 1)
	a.Mask = 1
	do(&a)
}

// matmulStream is matmul_tiled's global traffic for n x n matrices, 16 x 16
// tiles and threads: per tile each warp (rows ty = 2w, 2w+1) loads its A and B
// rows; at the end each warp stores its two C rows.
func matmulStream(n int) func(b int, do func(*Access)) {
	return func(b int, do func(*Access)) {
		var a Access
		bx, by := b%(n/16), b/(n/16)
		rows := func(kind Kind, base uint64, r0, c0 int) {
			a.Kind, a.Bytes, a.Mask, a.Space = kind, 4, 0xffffffff, Global
			for l := 0; l < 32; l++ {
				a.Addr[l] = base + uint64(4*((r0+l/16)*n+c0+l%16))
			}
			do(&a)
		}
		for t := 0; t < n/16; t++ {
			for w := 0; w < 8; w++ {
				rows(Load, bufA, by*16+2*w, t*16) // A[row*N + t*T + tx]
				rows(Load, bufB, t*16+2*w, bx*16) // B[(t*T + ty)*N + col]
			}
		}
		for w := 0; w < 8; w++ {
			rows(Store, bufC, by*16+2*w, bx*16)
		}
	}
}

// TestScaleAgainstH200 runs the streams through the sm_90 model and compares
// DRAM read bytes and L1/L2 sector hit rates with Nsight Compute's.
func TestScaleAgainstH200(t *testing.T) {
	if testing.Short() {
		t.Skip("scale streams take about a second")
	}
	raw, err := os.ReadFile(golden + "scale_sm90.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]struct {
		NCU map[string]string `json:"ncu"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	s, err := arch.Lookup("sm_90")
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range scaleStreams() {
		m, ok := doc[st.name]
		if !ok {
			t.Fatalf("%s not in scale_sm90.json", st.name)
		}
		num := func(k string) float64 {
			v, err := ParseNCUNumber(m.NCU[k])
			if err != nil {
				t.Fatalf("%s %s: %v", st.name, k, err)
			}
			return v
		}
		// The driver ran these with a 32 KB or larger carveout; L1 capacity does
		// not matter here (no kernel re-reads a line after other traffic).
		h := NewHierarchy(s, s.SMs, Options{Carveout: 32 * arch.KB})
		for b := 0; b < st.blocks; b++ {
			st.emit(b, func(a *Access) {
				a.SM = b % s.SMs
				h.Access(a)
			})
		}
		tot := h.Totals()
		dram := float64(tot.DRAMReads) * SectorBytes / 1e6
		l1, l2 := 100*h.L1HitRate(), 100*h.L2HitRate()
		wantDRAM, wantL1, wantL2 := num("dram__bytes_read.sum"), num("l1tex__t_sector_hit_rate.pct"), num("lts__t_sector_hit_rate.pct")
		t.Logf("%-26s DRAM read %8.3f MB (H200 %8.3f)  L1 hit %6.2f%% (%6.2f%%)  L2 hit %6.2f%% (%6.2f%%)  DRAM write %7.3f MB (%7.3f, end-of-kernel dirty data not flushed)",
			st.name, dram, wantDRAM, l1, wantL1, l2, wantL2, float64(tot.DRAMWrites)*SectorBytes/1e6, num("dram__bytes_write.sum"))
		role := "validation"
		if scaleCalibration[st.name] {
			role = "calibration"
		}
		t.Logf("  %s: |L1 err| %.2f, |L2 err| %.2f points", role, math.Abs(l1-wantL1), math.Abs(l2-wantL2))
		if math.Abs(dram-wantDRAM) > 0.01*wantDRAM {
			t.Errorf("%s: DRAM read %.3f MB, H200 %.3f MB", st.name, dram, wantDRAM)
		}
		if math.Abs(l1-wantL1) > hitRateTolerance {
			t.Errorf("%s (%s): L1 hit rate %.2f%%, H200 %.2f%%", st.name, role, l1, wantL1)
		}
		if k, ok := l2Known[st.name]; ok {
			t.Logf("  known deviation: %s", k.why)
			if (l2 < wantL2) != k.below || math.Abs(l2-wantL2) > k.tol {
				t.Errorf("%s: known L2 deviation has changed: %.2f%% vs H200 %.2f%% (bound %.0f points, %s)", st.name, l2, wantL2, k.tol, k.why)
			}
		} else if math.Abs(l2-wantL2) > hitRateTolerance {
			t.Errorf("%s (%s): L2 hit rate %.2f%%, H200 %.2f%%", st.name, role, l2, wantL2)
		}
	}
}

// hitRateTolerance is the goal for modelled hit rates: within 5 points of
// Nsight Compute's l1tex__t_sector_hit_rate and lts__t_sector_hit_rate.
const hitRateTolerance = 5.0

// scaleCalibration names the launches DefaultL2InFlight was chosen on; the
// others only validate (the L1/L2 policy itself comes from the
// microbenchmarks in testdata/measured/caches, not from these launches).
var scaleCalibration = map[string]bool{"offset_copy_4M": true, "histogram256_16M": true}

// l2Known lists the launches whose L2 hit rate the functional-order model
// cannot bring within hitRateTolerance, the side it errs on, the bound that
// holds and why (the timed caches of cache_timed.go are the remedy).
var l2Known = map[string]struct {
	tol   float64
	below bool
	why   string
}{
	"histogram256_16M": {13, true, "each warp reads one sector and its 64-byte partner is read by the next warp " +
		"a few cycles later; on the H200 14.5% of those reads find the fill already returned (lts read hits " +
		"75,950 of 524,288, testdata/measured/caches/scale_ncu.csv), which depends on timing; in issue order the " +
		"partner is always still in flight"},
	"matmul_tiled_256": {10, false, "the H200 misses 23,530 read sectors where only 16,384 are compulsory (its DRAM " +
		"reads are the compulsory 0.53 MB): 7,146 misses read nothing from DRAM. Not explained by fills in flight (a " +
		"request for a sector being fetched is a hit on the H200). A lead, not modelled: the two L2 partitions, where a " +
		"line read from SMs of both partitions misses once in each (the stream probes fit this: re-reads hit up to " +
		"~40 MB of the 60 MB L2)"},
}
