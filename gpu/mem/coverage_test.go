package mem

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// refStoreCoverage is the byte-by-byte coverage storeCoverage replaced.
func refStoreCoverage(a *Access, secs []uint64, cov []uint32) {
	clear(cov)
	w := laneBytes(a)
	for lane := 0; lane < 32; lane++ {
		if a.Mask&(1<<lane) == 0 {
			continue
		}
		for b := a.Addr[lane]; b < a.Addr[lane]+w && b >= a.Addr[lane]; b++ {
			if i, ok := slices.BinarySearch(secs, b/SectorBytes); ok {
				cov[i] |= 1 << (b % SectorBytes)
			}
		}
	}
}

// TestStoreCoverageMatchesBytewise compares storeCoverage with the byte walk on
// random stores: widths 1..128 (and out of range), aligned, unaligned, strided,
// scattered and wrapping addresses, partial masks.
func TestStoreCoverageMatchesBytewise(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var buf sectorBuf
	for i := 0; i < 20000; i++ {
		a := Access{Space: Global, Kind: Store, Mask: rng.Uint32()}
		if i%3 == 0 {
			a.Mask = ^uint32(0)
		}
		a.Bytes = []int{1, 2, 4, 8, 16, 3, 12, 32, 100, 128, 0, 200}[rng.IntN(12)]
		base := uint64(rng.IntN(1 << 20))
		if i%50 == 0 {
			base = math.MaxUint64 - uint64(rng.IntN(600))
		}
		stride := uint64([]int{4, 8, 1, 16, 0, 33, 128}[rng.IntN(7)])
		for l := range a.Addr {
			a.Addr[l] = base + uint64(l)*stride
			if i%7 == 0 {
				a.Addr[l] = base + uint64(rng.IntN(4096))
			}
		}
		secs := collectSectors(&a, &buf)
		got, want := make([]uint32, len(secs)), make([]uint32, len(secs))
		storeCoverage(&a, secs, got)
		refStoreCoverage(&a, secs, want)
		if !slices.Equal(got, want) {
			t.Fatalf("store %d bytes mask %#x at %#x...: coverage %x, byte walk %x", a.Bytes, a.Mask, a.Addr[:4], got, want)
		}
	}
}

// BenchmarkStoreCoverage is a coalesced 4-byte store (vector_add's) through
// storeCoverage and through the byte walk it replaced.
func BenchmarkStoreCoverage(b *testing.B) {
	a := Access{Space: Global, Kind: Store, Bytes: 4, Mask: ^uint32(0)}
	for l := range a.Addr {
		a.Addr[l] = 1<<20 + uint64(l)*4
	}
	var buf sectorBuf
	secs := collectSectors(&a, &buf)
	cov := make([]uint32, len(secs))
	for _, impl := range []struct {
		name string
		f    func(*Access, []uint64, []uint32)
	}{{"sectors", storeCoverage}, {"bytes", refStoreCoverage}} {
		b.Run(impl.name, func(b *testing.B) {
			for b.Loop() {
				impl.f(&a, secs, cov)
			}
		})
	}
}
