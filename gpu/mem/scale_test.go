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
		{"vector_add_16M", 65536, func(b int, do func(*Access)) { // c[i] = a[i] + b[i]
			var a Access
			for w := 0; w < 8; w++ {
				i := b*256 + w*32
				lanes(&a, Load, 4, bufA, i, 1)
				do(&a)
				lanes(&a, Load, 4, bufB, i, 1)
				do(&a)
				lanes(&a, Store, 4, bufC, i, 1)
				do(&a)
			}
		}},
		{"strided_copy_stride1_4M", 16384, func(b int, do func(*Access)) { // out[i] = in[i]
			var a Access
			for w := 0; w < 8; w++ {
				i := b*256 + w*32
				lanes(&a, Load, 4, bufA, i, 1)
				do(&a)
				lanes(&a, Store, 4, bufB, i, 1)
				do(&a)
			}
		}},
		{"strided_copy_stride32_4M", 16384, func(b int, do func(*Access)) { // out[i] = in[32*i]
			var a Access
			for w := 0; w < 8; w++ {
				i := b*256 + w*32
				lanes(&a, Load, 4, bufA, 32*i, 32)
				do(&a)
				lanes(&a, Store, 4, bufB, i, 1)
				do(&a)
			}
		}},
		{"offset_copy_4M", 16384, func(b int, do func(*Access)) { // out[i] = in[i+1]
			var a Access
			for w := 0; w < 8; w++ {
				i := b*256 + w*32
				lanes(&a, Load, 4, bufA, i+1, 1)
				do(&a)
				lanes(&a, Store, 4, bufB, i, 1)
				do(&a)
			}
		}},
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
		if math.Abs(dram-wantDRAM) > 0.01*wantDRAM {
			t.Errorf("%s: DRAM read %.3f MB, H200 %.3f MB", st.name, dram, wantDRAM)
		}
		if math.Abs(l1-wantL1) > 0.5 {
			t.Errorf("%s: L1 hit rate %.2f%%, H200 %.2f%%", st.name, l1, wantL1)
		}
		tol, why := 3.0, ""
		if k, ok := l2Known[st.name]; ok {
			tol, why = k.tol, k.why
			if l2 <= wantL2 {
				t.Errorf("%s: known deviation has changed direction: %.2f%% vs H200 %.2f%% (%s)", st.name, l2, wantL2, why)
			}
		}
		if math.Abs(l2-wantL2) > tol {
			t.Errorf("%s: L2 hit rate %.2f%%, H200 %.2f%% (tolerance %.0f points %s)", st.name, l2, wantL2, tol, why)
		}
	}
}

// l2Known lists the launches whose L2 hit rate a timing-free model cannot
// reproduce within 3 points, with the reason and the bound that holds.
var l2Known = map[string]struct {
	tol float64
	why string
}{
	"offset_copy_4M": {10, "the 64-byte fetch of warp w's last sector also brings warp w+1's second sector; " +
		"the model counts that as an L2 hit, while on the H200 warp w+1 usually asks before the fill has returned " +
		"(a miss in flight): 51.7K of the model's 131K such hits were hits on the H200"},
}
