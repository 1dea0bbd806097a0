package sim

import (
	"math/bits"

	"github.com/kernelscope/kernelscope/gpu/mem"
)

// accLog is a block's logged memory accesses for the consumer
// (parallel.go), kept compact: a mem.Access is 320 bytes, most of them the
// 32 lane addresses, while most warp accesses are affine in the lane
// (contiguous, strided or one address for all). An entry keeps the first
// active lane's address and the stride; other accesses keep their active
// lanes' addresses in addrs. Decoding gives back the Access exactly
// (inactive lanes' addresses are 0, as record leaves them).
type accLog struct {
	ents  []logAcc
	addrs []uint64 // active lanes' addresses of the accesses that are not affine
}

// logAcc is one logged access.
type logAcc struct {
	block                   int
	pc, line, sm, warp, nby int32
	mask                    uint32
	space                   mem.Space
	kind                    mem.Kind
	cache                   mem.CacheOp
	affine                  bool
	first                   uint64 // affine: the first active lane's address; else the index in addrs of its address
	stride                  uint64 // affine: the address step from one lane to the next
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

// add logs a copy of a.
func (l *accLog) add(a *mem.Access) {
	e := logAcc{block: a.Block, pc: int32(a.PC), line: int32(a.Line), sm: int32(a.SM), warp: int32(a.Warp), nby: int32(a.Bytes),
		mask: a.Mask, space: a.Space, kind: a.Kind, cache: a.Cache}
	if m := a.Mask; m != 0 {
		f := bits.TrailingZeros32(m)
		a0 := a.Addr[f]
		e.affine, e.first = true, a0
		if rest := m &^ (1 << uint(f)); rest != 0 {
			s := bits.TrailingZeros32(rest)
			d := a.Addr[s] - a0
			step := uint64(s - f)
			e.stride = d / step
			if e.stride*step != d {
				e.affine = false
			}
			for r := rest; r != 0 && e.affine; r &= r - 1 {
				lane := bits.TrailingZeros32(r)
				e.affine = a.Addr[lane] == a0+uint64(lane-f)*e.stride
			}
		}
		if !e.affine {
			e.first, e.stride = uint64(len(l.addrs)), 0
			for r := m; r != 0; r &= r - 1 {
				l.addrs = append(l.addrs, a.Addr[bits.TrailingZeros32(r)])
			}
		}
	}
	l.ents = append(l.ents, e)
}

// at decodes access i into a.
func (l *accLog) at(i int, a *mem.Access) {
	e := &l.ents[i]
	a.PC, a.Line, a.SM, a.Block, a.Warp = int(e.pc), int(e.line), int(e.sm), e.block, int(e.warp)
	a.Space, a.Kind, a.Cache, a.Bytes, a.Mask = e.space, e.kind, e.cache, int(e.nby), e.mask
	a.Addr = [32]uint64{}
	if e.mask == 0 {
		return
	}
	if e.affine {
		f := bits.TrailingZeros32(e.mask)
		for r := e.mask; r != 0; r &= r - 1 {
			lane := bits.TrailingZeros32(r)
			a.Addr[lane] = e.first + uint64(lane-f)*e.stride
		}
		return
	}
	k := int(e.first)
	for r := e.mask; r != 0; r &= r - 1 {
		a.Addr[bits.TrailingZeros32(r)] = l.addrs[k]
		k++
	}
}
