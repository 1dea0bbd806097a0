package sim

import (
	"encoding/binary"
	"sort"
)

// alloc is one global allocation.
type alloc struct {
	base uint64
	data []byte
	name string // what it is, for messages ("buffer argument 2", "global variable g")
	// Checker state (see sanitize.go): argument index + 1 (0: not an
	// argument), bitmap of written bytes of an undefined buffer (nil: defined),
	// per-word shadow for cross-block races (reads and writes apart).
	arg      int
	undef    []uint64
	shadow   []gword
	wshadow  []gwrite
	noShadow bool
}

// heap holds the global allocations, sorted by address.
type heap struct {
	allocs []*alloc
	next   uint64
}

func newHeap() *heap { return &heap{next: heapBase} }

// add makes a 256-byte aligned allocation with a copy of init (size bytes, zero-filled beyond init).
func (h *heap) add(size int, init []byte, name string) *alloc {
	if size < 0 {
		size = 0
	}
	a := &alloc{base: h.next, data: make([]byte, size), name: name}
	copy(a.data, init)
	// Leave a gap of at least 256 bytes so that one-past-the-end is unallocated.
	h.next += (uint64(size) + 256 + 255) &^ 255
	h.allocs = append(h.allocs, a)
	return a
}

// place adds caller-placed regions (in place, not copied) below the heap's own allocations.
func (h *heap) place(rs []Region) error {
	sorted := append([]Region(nil), rs...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Base < sorted[j].Base })
	var end uint64
	for _, r := range sorted {
		if r.Base < end || r.Base+uint64(len(r.Data)) > windowsLow {
			return launchError(InvalidLaunch, "memory region %s at %#x overlaps another or the address windows", r.Name, r.Base)
		}
		end = r.Base + uint64(len(r.Data))
		h.allocs = append(h.allocs, &alloc{base: r.Base, data: r.Data, name: r.Name})
	}
	return nil
}

// find returns the allocation containing [addr, addr+n), or the one
// containing addr (partial) with ok false, or nil.
func (h *heap) find(addr uint64, n int) (a *alloc, ok bool) {
	i := sort.Search(len(h.allocs), func(i int) bool { return h.allocs[i].base > addr }) - 1
	if i < 0 {
		return nil, false
	}
	a = h.allocs[i]
	end := a.base + uint64(len(a.data))
	if addr >= end {
		return nil, false
	}
	return a, addr+uint64(n) <= end
}

// loadLE reads size bytes little-endian (at most 8).
func loadLE(b []byte, size int) uint64 {
	switch size {
	case 1:
		return uint64(b[0])
	case 2:
		return uint64(binary.LittleEndian.Uint16(b))
	case 4:
		return uint64(binary.LittleEndian.Uint32(b))
	case 8:
		return binary.LittleEndian.Uint64(b)
	}
	var v uint64
	for i := 0; i < size && i < 8 && i < len(b); i++ {
		v |= uint64(b[i]) << (8 * uint(i))
	}
	return v
}

// storeLE writes the low size bytes of v little-endian (at most 8).
func storeLE(b []byte, size int, v uint64) {
	switch size {
	case 1:
		b[0] = byte(v)
	case 2:
		binary.LittleEndian.PutUint16(b, uint16(v))
	case 4:
		binary.LittleEndian.PutUint32(b, uint32(v))
	case 8:
		binary.LittleEndian.PutUint64(b, v)
	default:
		for i := 0; i < size && i < 8 && i < len(b); i++ {
			b[i] = byte(v >> (8 * uint(i)))
		}
	}
}

// signExtend extends the low size bytes of v as a signed value to 64 bits.
func signExtend(v uint64, size int) uint64 {
	sh := uint(64 - 8*size)
	return uint64(int64(v<<sh) >> sh)
}

// widthMask is the mask of a register of t's width.
func widthMask(t int) uint64 {
	if t >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(t) - 1
}

// classify resolves a generic address to its space and the address within it.
func classify(a uint64) (space, uint64) {
	if a < windowsLow || a >= windowsHigh {
		return spGlobal, a
	}
	switch {
	case a >= sharedWin && a < sharedWin+winSize:
		return spShared, a - sharedWin
	case a >= localWin && a < localWin+winSize:
		return spLocal, a - localWin
	case a >= constWin && a < constWin+winSize:
		return spConst, a - constWin
	case a >= paramWin && a < paramWin+winSize:
		return spParamKernel, a - paramWin
	}
	return spGlobal, a
}
