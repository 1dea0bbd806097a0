package mem

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// refSharedWavefronts is the implementation SharedWavefronts replaced (it
// sorted each group's words), kept as the reference of TestSharedWavefrontsMatchReference.
func refSharedWavefronts(a *Access) (wavefronts, idealWavefronts int) {
	if a == nil || a.Mask == 0 {
		return 0, 0
	}
	w := laneBytes(a)
	atomic := a.Kind == Atomic || a.Kind == Reduction
	group := 32
	switch {
	case atomic || w <= 4:
		group = 32
	case w <= 8:
		group = 16
	default:
		group = 8
	}
	var slots [32]uint64
	n := 0
	for lane := 0; lane < 32; lane++ {
		if a.Mask&(1<<lane) == 0 {
			continue
		}
		if !atomic && group < 32 && lane&1 == 1 && a.Mask&(1<<(lane-1)) != 0 && a.Addr[lane-1] == a.Addr[lane] {
			continue
		}
		slots[n] = a.Addr[lane]
		n++
	}
	for start := 0; start < n; start += group {
		end := min(start+group, n)
		wavefronts += refGroupWavefronts(slots[start:end], w, atomic)
		idealWavefronts++
	}
	return wavefronts, idealWavefronts
}

func refGroupWavefronts(slots []uint64, w uint64, atomic bool) int {
	var words [32 * (maxLaneBytes/4 + 1)]uint64
	n := 0
	for _, addr := range slots {
		first, last := addr/4, (addr+w-1)/4
		if last < first {
			last = first
		}
		for wd := first; wd <= last; wd++ {
			words[n] = wd
			n++
		}
	}
	list := words[:n]
	if !atomic {
		slices.Sort(list)
		list = slices.Compact(list)
	}
	var perBank [BankCount]int
	most := 0
	for _, wd := range list {
		b := wd % BankCount
		perBank[b]++
		most = max(most, perBank[b])
	}
	return most
}

// randomSharedAccess draws one warp access from a mix of patterns: strides,
// broadcasts, equal even/odd pairs, random words in a few rows, rows far
// apart (the spread fallback), unaligned and huge addresses, odd widths.
func randomSharedAccess(r *rand.Rand) *Access {
	a := &Access{Space: Shared, Kind: Kind(r.IntN(4))}
	widths := []int{0, 1, 2, 4, 4, 8, 8, 12, 16, 16, 32, 64, 128, 200}
	a.Bytes = widths[r.IntN(len(widths))]
	switch r.IntN(4) {
	case 0:
		a.Mask = ^uint32(0)
	case 1:
		a.Mask = r.Uint32()
	case 2:
		a.Mask = uint32(1) << r.IntN(32)
	default:
		a.Mask = ^uint32(0) >> r.IntN(32)
	}
	base := uint64(r.IntN(4096)) * 4
	if r.IntN(8) == 0 {
		base = r.Uint64() // anywhere, wrap-around included
	}
	stride := uint64([]int{0, 1, 2, 3, 4, 8, 12, 16, 32, 64, 128, 132, 256, 1024, 4096, 65536}[r.IntN(16)])
	mode := r.IntN(6)
	for l := range 32 {
		var addr uint64
		switch mode {
		case 0: // strided
			addr = base + uint64(l)*stride
		case 1: // random words within a few rows
			addr = base + uint64(r.IntN(4*128))
		case 2: // random words anywhere in 48 KiB
			addr = uint64(r.IntN(48 << 10))
		case 3: // pairs of lanes sharing an address
			addr = base + uint64(l/2)*stride
		case 4: // a few distinct addresses (broadcast groups)
			addr = base + uint64(r.IntN(3))*stride
		default: // permuted stride
			addr = base + uint64((l*7)%32)*stride + uint64(r.IntN(2))*4
		}
		if r.IntN(16) == 0 {
			addr += uint64(r.IntN(4)) // unaligned
		}
		a.Addr[l] = addr
	}
	return a
}

// TestSharedWavefrontsMatchReference compares SharedWavefronts with the
// sorting implementation it replaced on random warp accesses.
func TestSharedWavefrontsMatchReference(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 2))
	spread := 0
	for i := range 200000 {
		a := randomSharedAccess(r)
		w, ideal := SharedWavefronts(a)
		rw, rideal := refSharedWavefronts(a)
		if w != rw || ideal != rideal {
			t.Fatalf("access %d (kind %d, %d bytes, mask %#x, addr %v): got %d/%d wavefronts/ideal, reference %d/%d",
				i, a.Kind, a.Bytes, a.Mask, a.Addr, w, ideal, rw, rideal)
		}
		if rowSpan(a) >= 64 && a.Kind != Atomic && a.Kind != Reduction {
			spread++
		}
	}
	if spread < 1000 {
		t.Errorf("only %d accesses had rows more than 64 apart (the spread fallback)", spread)
	}
}

// rowSpan is how many bank rows (128 bytes) separate the active lanes' lowest and highest address.
func rowSpan(a *Access) uint64 {
	lo, hi := ^uint64(0), uint64(0)
	for l := range 32 {
		if a.Mask&(1<<l) != 0 {
			lo, hi = min(lo, a.Addr[l]), max(hi, a.Addr[l])
		}
	}
	return (hi - lo) / 128
}

// TestSharedWavefrontsDoNotAllocate checks the counting allocates nothing.
func TestSharedWavefrontsDoNotAllocate(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	accs := make([]*Access, 64)
	for i := range accs {
		accs[i] = randomSharedAccess(r)
	}
	if n := testing.AllocsPerRun(10, func() {
		for _, a := range accs {
			SharedWavefronts(a)
		}
	}); n != 0 {
		t.Errorf("SharedWavefronts allocates %.1f times per 64 accesses", n)
	}
}

// BenchmarkSharedWavefronts counts a mix of warp accesses (conflict-free,
// broadcast, strided, 64- and 128-bit) with the bitmask implementation and the
// sorting reference it replaced.
func BenchmarkSharedWavefronts(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	accs := make([]*Access, 1024)
	for i := range accs {
		accs[i] = randomSharedAccess(r)
	}
	for _, impl := range []struct {
		name string
		f    func(*Access) (int, int)
	}{{"bitmask", SharedWavefronts}, {"sorted", refSharedWavefronts}} {
		b.Run(impl.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				impl.f(accs[i%len(accs)])
			}
		})
	}
}
