package sim

import (
	"math/bits"

	"github.com/kernelscope/kernelscope/gpu/mem"
)

// accLog is a block's logged memory accesses for the consumer
// (parallel.go), kept compact: a mem.Access is 320 bytes, most of them the
// 32 lane addresses, while most warp accesses are affine in the lane
// (contiguous, strided or one address for all), or affine in each half-warp
// (a block 16 threads wide: two rows). An entry keeps the first active
// lane's address and the stride (per half-warp: the upper half's pair in
// addrs); other accesses keep their active lanes' addresses in addrs.
// Decoding gives back the Access exactly (inactive lanes' addresses are 0,
// as record leaves them).
type accLog struct {
	ents  []logAcc
	addrs []uint64 // the upper half-warp's first address and stride (halves), or the active lanes' addresses (list)
}

// How a logged access keeps its lane addresses.
const (
	addrAffine uint8 = iota // first + (lane - first active lane) x stride
	addrHalves              // affine in each half-warp: the lower half's pair in the entry, the upper's at addrs[at]
	addrList                // the active lanes' addresses at addrs[at:]
)

// logAcc is one logged access.
type logAcc struct {
	block                   int
	pc, line, sm, warp, nby int32 // PTX indices, source lines, SMs, warps and bytes per lane: far below 2^31
	mask                    uint32
	dsmem                   uint32 // mem.Access.DSMEM
	space                   mem.Space
	kind                    mem.Kind
	cache                   mem.CacheOp
	mode                    uint8  // addrAffine, addrHalves or addrList
	at                      uint32 // halves: the index in addrs of the upper half's first address and stride; list: of the first lane's address
	first, stride           uint64 // affine, and halves' lower half: the first active lane's address and the step from one lane to the next
}

// len is the number of logged accesses (0 for a nil log).
func (l *accLog) len() int {
	if l == nil {
		return 0
	}
	return len(l.ents)
}

// reset empties the log, keeping its memory (a nil log stays nil).
func (l *accLog) reset() {
	if l != nil {
		l.ents, l.addrs = l.ents[:0], l.addrs[:0]
	}
}

// affine reports whether the addresses of the lanes in m are first + (lane -
// the first lane of m) x stride, and returns first and stride (0, 0 for no lane).
func affine(addr *[32]uint64, m uint32) (first, stride uint64, ok bool) {
	if m == 0 {
		return 0, 0, true
	}
	f := bits.TrailingZeros32(m)
	first = addr[f]
	rest := m &^ (1 << uint(f))
	if rest == 0 {
		return first, 0, true
	}
	s := bits.TrailingZeros32(rest)
	d, step := addr[s]-first, uint64(s-f)
	stride = d / step
	if stride*step != d {
		return 0, 0, false
	}
	for r := rest; r != 0; r &= r - 1 {
		lane := bits.TrailingZeros32(r)
		if addr[lane] != first+uint64(lane-f)*stride {
			return 0, 0, false
		}
	}
	return first, stride, true
}

// add logs a copy of a.
func (l *accLog) add(a *mem.Access) {
	// The entry is written in place (no copy of a built one).
	if len(l.ents) == cap(l.ents) {
		l.ents = append(l.ents, logAcc{})[:len(l.ents)]
	}
	l.ents = l.ents[:len(l.ents)+1]
	e := &l.ents[len(l.ents)-1]
	*e = logAcc{block: a.Block, pc: int32(a.PC), line: int32(a.Line), sm: int32(a.SM), warp: int32(a.Warp), nby: int32(a.Bytes),
		mask: a.Mask, dsmem: a.DSMEM, space: a.Space, kind: a.Kind, cache: a.Cache}
	if a.Mask == ^uint32(0) {
		l.addFull(e, &a.Addr)
		return
	}
	var ok bool
	if e.first, e.stride, ok = affine(&a.Addr, a.Mask); !ok {
		lo, hi := a.Mask&0xffff, a.Mask&^0xffff
		f0, s0, ok0 := affine(&a.Addr, lo)
		f1, s1, ok1 := affine(&a.Addr, hi)
		e.at = uint32(len(l.addrs))
		if ok0 && ok1 {
			e.mode, e.first, e.stride = addrHalves, f0, s0
			l.addrs = append(l.addrs, f1, s1)
		} else {
			e.mode, e.first, e.stride = addrList, 0, 0
			for r := a.Mask; r != 0; r &= r - 1 {
				l.addrs = append(l.addrs, a.Addr[bits.TrailingZeros32(r)])
			}
		}
	}
}

// halfStride returns the stride of 16 addresses if they are affine (one
// branch-free pass).
func halfStride(h *[16]uint64) (uint64, bool) {
	d := h[1] - h[0]
	var x uint64
	for i := 2; i < 16; i++ {
		x |= (h[i] - h[i-1]) ^ d
	}
	return d, x == 0
}

// addFull completes add's entry e for an access of every lane (the common
// case), in one pass over each half-warp.
func (l *accLog) addFull(e *logAcc, addr *[32]uint64) {
	d0, ok0 := halfStride((*[16]uint64)(addr[:16]))
	var d1 uint64
	ok1 := false
	if ok0 {
		d1, ok1 = halfStride((*[16]uint64)(addr[16:]))
	}
	switch {
	case ok0 && ok1 && d0 == d1 && addr[16] == addr[15]+d0:
		e.mode, e.first, e.stride = addrAffine, addr[0], d0
	case ok0 && ok1:
		e.mode, e.first, e.stride, e.at = addrHalves, addr[0], d0, uint32(len(l.addrs))
		l.addrs = append(l.addrs, addr[16], d1)
	default:
		e.mode, e.at = addrList, uint32(len(l.addrs))
		l.addrs = append(l.addrs, addr[:]...)
	}
}

// fillHalf sets 16 addresses to first + i x stride.
func fillHalf(h *[16]uint64, first, stride uint64) {
	for i := range h {
		h[i] = first
		first += stride
	}
}

// fillAffine sets the addresses of the lanes in m to first + (lane - the
// first lane of m) x stride.
func fillAffine(addr *[32]uint64, m uint32, first, stride uint64) {
	if m == 0 {
		return
	}
	f := bits.TrailingZeros32(m)
	for r := m; r != 0; r &= r - 1 {
		lane := bits.TrailingZeros32(r)
		addr[lane] = first + uint64(lane-f)*stride
	}
}

// at decodes access i into a.
func (l *accLog) at(i int, a *mem.Access) {
	e := &l.ents[i]
	a.PC, a.Line, a.SM, a.Block, a.Warp = int(e.pc), int(e.line), int(e.sm), e.block, int(e.warp)
	a.Space, a.Kind, a.Cache, a.Bytes, a.Mask, a.DSMEM = e.space, e.kind, e.cache, int(e.nby), e.mask, e.dsmem
	if e.mask == ^uint32(0) {
		switch e.mode {
		case addrAffine:
			fillHalf((*[16]uint64)(a.Addr[:16]), e.first, e.stride)
			fillHalf((*[16]uint64)(a.Addr[16:]), e.first+16*e.stride, e.stride)
		case addrHalves:
			fillHalf((*[16]uint64)(a.Addr[:16]), e.first, e.stride)
			fillHalf((*[16]uint64)(a.Addr[16:]), l.addrs[e.at], l.addrs[e.at+1])
		default:
			copy(a.Addr[:], l.addrs[e.at:e.at+32])
		}
		return
	}
	a.Addr = [32]uint64{}
	switch e.mode {
	case addrAffine:
		fillAffine(&a.Addr, e.mask, e.first, e.stride)
	case addrHalves:
		fillAffine(&a.Addr, e.mask&0xffff, e.first, e.stride)
		fillAffine(&a.Addr, e.mask&^0xffff, l.addrs[e.at], l.addrs[e.at+1])
	default:
		k := int(e.at)
		for r := e.mask; r != 0; r &= r - 1 {
			a.Addr[bits.TrailingZeros32(r)] = l.addrs[k]
			k++
		}
	}
}
