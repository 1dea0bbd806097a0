package mem

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/arch"
)

// randomAccess draws an access with hostile fields: any space, kind, cache op,
// width (including 0, negative and huge), mask, SM, PC and addresses near the
// ends of the address space.
func randomAccess(r *rand.Rand) *Access {
	a := &Access{
		PC: r.IntN(64) - 8, Line: r.IntN(100), SM: int(r.Int64()), Block: r.IntN(1 << 20), Warp: r.IntN(64) - 2,
		Space: Space(r.IntN(7)), Kind: Kind(r.IntN(6)), Cache: CacheOp(r.IntN(11)),
		Bytes: []int{-3, 0, 1, 2, 4, 8, 12, 16, 32, 1 << 20}[r.IntN(10)], Mask: r.Uint32(),
	}
	base := []uint64{0, 1 << 40, math.MaxUint64 - 200, uint64(r.Int64())}[r.IntN(4)]
	for l := range a.Addr {
		switch r.IntN(3) {
		case 0:
			a.Addr[l] = base + uint64(l)*uint64(r.IntN(300))
		case 1:
			a.Addr[l] = base
		default:
			a.Addr[l] = r.Uint64()
		}
	}
	return a
}

// TestRobustRandomAccesses feeds random accesses everywhere and checks invariants.
func TestRobustRandomAccesses(t *testing.T) {
	s, err := arch.Lookup("sm_86")
	if err != nil {
		t.Fatal(err)
	}
	h := NewHierarchy(s, 3, Options{L2Bytes: 64 * LineBytes})
	c := NewCounter(h)
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 5000; i++ {
		a := randomAccess(r)
		req, sec, ideal := GlobalSectors(a)
		if a.Mask != 0 && (req != 1 || sec < 1 || ideal < 1) || a.Mask == 0 && req+sec+ideal != 0 {
			t.Fatalf("GlobalSectors %+v: %d %d %d", a, req, sec, ideal)
		}
		w, iw := SharedWavefronts(a)
		if w < iw || (a.Mask != 0) != (iw > 0) {
			t.Fatalf("SharedWavefronts: %d < ideal %d", w, iw)
		}
		o := h.Access(a)
		if o.L1Hits+o.L1Misses > o.Sectors || o.L2Hits+o.L2Misses > o.Sectors || o.DRAMReads > o.L2Misses+o.Sectors {
			t.Fatalf("outcome %+v", o)
		}
		c.Observe(a)
	}
	tot := c.Totals()
	if tot.L1HitRate < 0 || tot.L1HitRate > 1 || tot.L2HitRate < 0 || tot.L2HitRate > 1 {
		t.Errorf("hit rates %v %v", tot.L1HitRate, tot.L2HitRate)
	}
	if len(c.Instructions()) == 0 {
		t.Error("no rows")
	}
}

func FuzzAccess(f *testing.F) {
	f.Add(uint64(0), uint64(4), 4, uint32(0xffffffff), uint8(0), uint8(0), -1)
	f.Add(uint64(math.MaxUint64-3), uint64(1<<63), 16, uint32(3), uint8(1), uint8(2), math.MinInt)
	h := NewHierarchy(nil, 2, Options{L1Bytes: 8 * LineBytes, L2Bytes: 32 * LineBytes})
	c := NewCounter(h)
	f.Fuzz(func(t *testing.T, base, stride uint64, bytes int, mask uint32, space, kind uint8, sm int) {
		a := &Access{Space: Space(space % 8), Kind: Kind(kind % 8), Bytes: bytes, Mask: mask, SM: sm}
		for l := range a.Addr {
			a.Addr[l] = base + uint64(l)*stride
		}
		GlobalSectors(a)
		GlobalLines(a)
		SharedWavefronts(a)
		h.Access(a)
		c.Observe(a)
	})
}
