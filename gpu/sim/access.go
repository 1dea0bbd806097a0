package sim

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"

	"github.com/kernelscope/kernelscope/gpu/mem"
)

var kindWords = [...]string{mem.Load: "load", mem.Store: "store", mem.Atomic: "atomic", mem.Reduction: "reduction"}

// memory executes a warp-level ld, st, atom/red or cp.async for the lanes in exec.
func (l *launcher) memory(w *warp, o *op, pc int32, exec uint32, r []uint64) error {
	if s := l.par; s != nil && !s.head && s.c.gated[pc] {
		if err := l.gate(pc); err != nil {
			return err
		}
	}
	l.stats.MemoryInstructions++
	var addr [32]uint64
	base := o.addr.imm
	switch o.addr.frame {
	case 1:
		base += uint64(w.localBase)
	case 2:
		base += uint64(w.paramBase)
	}
	for m := exec; m != 0; m &= m - 1 {
		lane := bits.TrailingZeros32(m)
		a := base
		if o.addr.reg >= 0 {
			a += r[int(o.addr.reg)*32+lane]
		}
		if o.addr.wrap {
			a = uint64(uint32(a))
		}
		addr[lane] = a
	}
	kind := mem.Load
	switch o.kind {
	case kSt:
		kind = mem.Store
	case kAtom:
		kind = mem.Atomic
		if o.nd == 0 {
			kind = mem.Reduction
		}
	case kCpAsync:
		return l.cpAsync(w, o, pc, exec, r, &addr)
	}
	if o.space != spGeneric {
		return l.access(w, o, pc, exec, r, &addr, o.space, kind)
	}
	// Generic: resolve each lane's window, then run each space's lanes.
	var masks [7]uint32
	for m := exec; m != 0; m &= m - 1 {
		lane := bits.TrailingZeros32(m)
		sp, a := classify(addr[lane])
		addr[lane] = a
		masks[sp] |= 1 << uint(lane)
	}
	for sp, mk := range masks {
		if mk != 0 {
			if err := l.access(w, o, pc, mk, r, &addr, space(sp), kind); err != nil {
				return err
			}
		}
	}
	return nil
}

// bytesAt returns the n bytes at address a of space sp for a lane, or an error.
func (l *launcher) bytesAt(w *warp, pc int32, lane int, sp space, a uint64, n int, kind mem.Kind) ([]byte, error) {
	if a%uint64(n) != 0 {
		return nil, l.laneError(w, pc, lane, Misaligned, a,
			fmt.Sprintf("misaligned %s %s of %d bytes at %s", spaceNames[sp], kindWords[kind], n, fmtAddr(sp, a)),
			fmt.Sprintf("the address must be a multiple of %d", n))
	}
	var buf []byte
	switch sp {
	case spGlobal:
		if h := l.lastHit; h != nil && a >= h.base && a-h.base+uint64(n) <= uint64(len(h.data)) {
			off := a - h.base
			return h.data[off : off+uint64(n)], nil
		}
		al, ok := l.heap.find(a, n)
		if !ok {
			cause := "no allocation contains this address"
			if al != nil {
				cause = fmt.Sprintf("the access runs past the end of %s (%d bytes at %#x)", al.name, len(al.data), al.base)
			} else if near := l.nearest(a); near != "" {
				cause += "; " + near
			}
			return nil, l.laneError(w, pc, lane, OutOfBounds, a,
				fmt.Sprintf("out-of-bounds global %s of %d bytes at %#x", kindWords[kind], n, a), cause)
		}
		l.lastHit = al
		off := a - al.base
		return al.data[off : off+uint64(n)], nil
	case spShared:
		if a >= 1<<clusterShift {
			return l.remoteShared(w, pc, lane, a, n, kind)
		}
		if a+uint64(n) > uint64(len(w.blk.shared)) || a+uint64(n) < a {
			return nil, l.laneError(w, pc, lane, SharedOutOfRange, a,
				fmt.Sprintf("shared %s of %d bytes at offset %#x", kindWords[kind], n, a),
				fmt.Sprintf("the block has %d bytes of shared memory", len(w.blk.shared)))
		}
		return w.blk.shared[a : a+uint64(n)], nil
	case spLocal:
		buf = w.local[lane]
	case spConst:
		buf = l.prog.constMem
	case spParamKernel:
		buf = l.prog.params
	case spParamFrame:
		buf = w.params[lane]
	}
	if a+uint64(n) > uint64(len(buf)) || a+uint64(n) < a {
		return nil, l.laneError(w, pc, lane, OutOfBounds, a,
			fmt.Sprintf("out-of-bounds %s %s of %d bytes at offset %#x", spaceNames[sp], kindWords[kind], n, a),
			fmt.Sprintf("the %s space has %d bytes", spaceNames[sp], len(buf)))
	}
	return buf[a : a+uint64(n)], nil
}

// nearest describes the allocation closest below a, to help read an out-of-bounds address.
func (l *launcher) nearest(a uint64) string {
	var best *alloc
	for _, al := range l.heap.allocs {
		if al.base <= a {
			best = al
		}
	}
	if best == nil {
		return ""
	}
	end := best.base + uint64(len(best.data))
	return fmt.Sprintf("it is %d bytes past the end of %s (%d bytes at %#x)", a-end, best.name, len(best.data), best.base)
}

// fmtAddr formats an address of a space for messages.
func fmtAddr(sp space, a uint64) string {
	if sp == spGlobal {
		return fmt.Sprintf("%#x", a)
	}
	return fmt.Sprintf("offset %#x", a)
}

// access performs a load, store or atomic of the lanes in mask, all in space sp.
func (l *launcher) access(w *warp, o *op, pc int32, mask uint32, r []uint64, addr *[32]uint64, sp space, kind mem.Kind) error {
	size := int(o.size)
	n := size * int(o.vec)
	switch kind {
	case mem.Load:
		// Addresses were all computed before any register is written, so
		// destinations may be written lane by lane.
		h := l.lastHit
		un := uint64(n)
		am := un - 1 // n is a power of two (1..16)
		sh := w.blk.shared
		vec, signed := int(o.vec), o.signed
		m := mask
		if d := int(o.dst[0]); vec == 1 && size == 4 && !signed && d >= 0 {
			// One 32-bit word per lane from one buffer: lanes in bounds go
			// straight to the register; the first that is not (or lies in
			// another allocation) and those after it take the general path.
			var buf []byte
			var base uint64
			switch {
			case sp == spShared:
				buf = sh
			case sp == spGlobal && h != nil:
				buf, base = h.data, h.base
			}
			if lim := uint64(len(buf)); lim >= 4 {
				dst, dm := (*[32]uint64)(r[d*32:d*32+32]), o.dmask[0]
				for ; m != 0; m &= m - 1 {
					lane := bits.TrailingZeros32(m) & 31
					x := addr[lane]
					a := x - base
					if x&3 != 0 || a > lim-4 {
						break
					}
					dst[lane] = uint64(binary.LittleEndian.Uint32(buf[a:a+4])) & dm
				}
			}
		}
		for ; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros32(m)
			a := addr[lane]
			var b []byte
			switch {
			case sp == spShared && a&am == 0 && a < uint64(len(sh)) && uint64(len(sh))-a >= un:
				b = sh[a : a+un]
			case sp == spGlobal && h != nil && a&am == 0 && a >= h.base && a-h.base < uint64(len(h.data)) && uint64(len(h.data))-(a-h.base) >= un:
				b = h.data[a-h.base : a-h.base+un]
			default:
				var err error
				if b, err = l.bytesAt(w, pc, lane, sp, a, n, kind); err != nil {
					return err
				}
				h = l.lastHit
			}
			if vec == 1 && size == 4 && !signed {
				if d := int(o.dst[0]); d >= 0 {
					r[d*32+lane] = uint64(binary.LittleEndian.Uint32(b)) & o.dmask[0]
				}
				continue
			}
			for e := 0; e < vec; e++ {
				d := int(o.dst[e])
				if d < 0 {
					continue
				}
				v := loadLE(b[e*size:], size)
				if signed {
					v = signExtend(v, size)
				}
				r[d*32+lane] = v & o.dmask[e]
			}
		}
	case mem.Store:
		if sp == spConst || (sp == spParamKernel) {
			return l.laneError(w, pc, firstLane(mask), OutOfBounds, addr[firstLane(mask)],
				fmt.Sprintf("store to read-only %s space", spaceNames[sp]), "")
		}
		h := l.lastHit
		un := uint64(n)
		am := un - 1
		sh := w.blk.shared
		for m := mask; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros32(m)
			a := addr[lane]
			var b []byte
			switch {
			case sp == spShared && a&am == 0 && a < uint64(len(sh)) && uint64(len(sh))-a >= un:
				b = sh[a : a+un]
			case sp == spGlobal && h != nil && a&am == 0 && a >= h.base && a-h.base < uint64(len(h.data)) && uint64(len(h.data))-(a-h.base) >= un:
				b = h.data[a-h.base : a-h.base+un]
			default:
				var err error
				if b, err = l.bytesAt(w, pc, lane, sp, a, n, kind); err != nil {
					return err
				}
				h = l.lastHit
			}
			for e := 0; e < int(o.vec); e++ {
				storeLE(b[e*size:], size, o.src[e].get(r, lane))
			}
		}
	default:
		if sp != spGlobal && sp != spShared {
			return l.laneError(w, pc, firstLane(mask), Trap, addr[firstLane(mask)],
				fmt.Sprintf("atomic on %s memory", spaceNames[sp]), "atomics work on global and shared memory only")
		}
		var olds [32]uint64
		for m := mask; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros32(m)
			b, err := l.bytesAt(w, pc, lane, sp, addr[lane], n, kind)
			if err != nil {
				return err
			}
			old := loadLE(b, size)
			var nv uint64
			if o.ar != nil {
				src := [4]uint64{old, o.src[0].get(r, lane)}
				var cc uint8
				nv, _ = o.ar.Eval(&src, &cc)
			} else {
				nv = atomicOp(o, old, o.src[0].get(r, lane), o.src[1].get(r, lane), sp == spGlobal)
			}
			storeLE(b, size, nv)
			olds[lane] = old
		}
		if o.nd > 0 && o.dst[0] >= 0 {
			d := int(o.dst[0])
			for m := mask; m != 0; m &= m - 1 {
				lane := bits.TrailingZeros32(m)
				r[d*32+lane] = olds[lane] & o.dmask[0]
			}
		}
	}
	l.record(w, o, pc, mask, addr, sp, kind, n)
	return nil
}

// record reports an access to the memory model and the trace.
func (l *launcher) record(w *warp, o *op, pc int32, mask uint32, addr *[32]uint64, sp space, kind mem.Kind, n int) {
	if l.chk != nil {
		if sp == spShared && (l.grp != nil || anyCluster(mask, addr)) {
			l.clusterRecord(w, pc, mask, addr, kind, n)
		} else {
			l.chk.access(w, pc, mask, addr, sp, kind, n)
		}
	}
	if l.cfg.OnMemory != nil && (l.cfg.Issues != nil || l.driven) && len(w.issues) > 0 {
		w.issues[len(w.issues)-1].Accesses++ // the issue that made this access: appended before it executed
	}
	if l.cfg.OnMemory == nil && !(w.traced && l.tr != nil && l.tr.on()) {
		return
	}
	a := &l.acc
	info := &l.prog.info[pc]
	a.PC, a.Line, a.SM, a.Block, a.Warp = info.idx, info.line, w.blk.sm, w.blk.lin, w.id
	a.Space, a.Kind, a.Cache, a.Bytes, a.Mask = sp.memSpace(), kind, o.cache, n, mask
	for lane := 0; lane < 32; lane++ {
		if mask&(1<<uint(lane)) != 0 {
			a.Addr[lane] = addr[lane]
		} else {
			a.Addr[lane] = 0
		}
	}
	a.DSMEM = 0
	if sp == spShared {
		a.DSMEM = remoteLanes(w, mask, addr)
	}
	if w.traced && l.tr != nil && l.tr.on() {
		l.tr.mem(MemRecord{Space: spaceNames[sp], Kind: kindWords[kind], Bytes: n, Mask: mask, Addr: a.Addr})
	}
	if l.cfg.OnMemory != nil {
		l.cfg.OnMemory(a)
	}
}

// atomicOp computes the new value of an atomic read-modify-write.
func atomicOp(o *op, old, b, c uint64, global bool) uint64 {
	size := int(o.size)
	mask := widthMask(size * 8)
	if o.flt {
		if size == 4 {
			x, y := math.Float32frombits(uint32(old)), math.Float32frombits(uint32(b))
			var z float32
			switch o.sub {
			case atomAdd:
				// PTX: atom.add.f32 rounds to nearest even and flushes
				// subnormal inputs and results to sign-preserving zero. The
				// H200 does so in global memory but keeps subnormals in
				// shared memory (testdata/hwdiff, kG).
				if global {
					z = ftz32(ftz32(x) + ftz32(y))
				} else {
					z = x + y
				}
			case atomMin:
				z = float32(math.Min(float64(x), float64(y)))
			case atomMax:
				z = float32(math.Max(float64(x), float64(y)))
			}
			if z != z {
				return 0x7fffffff
			}
			return uint64(math.Float32bits(z))
		}
		x, y := math.Float64frombits(old), math.Float64frombits(b)
		var z float64
		switch o.sub {
		case atomAdd:
			z = x + y
		case atomMin:
			z = math.Min(x, y)
		case atomMax:
			z = math.Max(x, y)
		}
		if z != z {
			return 0x7fffffffffffffff
		}
		return math.Float64bits(z)
	}
	old &= mask
	b &= mask
	c &= mask
	switch o.sub {
	case atomAdd:
		return (old + b) & mask
	case atomMin:
		if o.signed {
			if int64(signExtend(b, size)) < int64(signExtend(old, size)) {
				return b
			}
			return old
		}
		if b < old {
			return b
		}
		return old
	case atomMax:
		if o.signed {
			if int64(signExtend(b, size)) > int64(signExtend(old, size)) {
				return b
			}
			return old
		}
		if old < b {
			return b
		}
		return old
	case atomInc:
		if old >= b {
			return 0
		}
		return (old + 1) & mask
	case atomDec:
		if old == 0 || old > b {
			return b
		}
		return (old - 1) & mask
	case atomCas:
		if old == b {
			return c
		}
		return old
	case atomExch:
		return b
	case atomAnd:
		return old & b
	case atomOr:
		return old | b
	case atomXor:
		return old ^ b
	}
	return old
}

// cpAsync copies cp-size bytes per lane from global to shared memory (the
// bytes beyond src-size are zero).
func (l *launcher) cpAsync(w *warp, o *op, pc int32, exec uint32, r []uint64, dst *[32]uint64) error {
	n := int(o.vec)
	var src [32]uint64
	for m := exec; m != 0; m &= m - 1 {
		lane := bits.TrailingZeros32(m)
		a := o.src[0].imm
		if o.src[0].reg >= 0 {
			a += r[int(o.src[0].reg)*32+lane]
		}
		src[lane] = a
		srcSize := int(min(o.src[1].get(r, lane), uint64(n)))
		if o.sub == 1 { // ignore-src predicate
			srcSize = n
			if pred(&o.src[1], r, lane) {
				srcSize = 0
			}
		}
		d, err := l.bytesAt(w, pc, lane, spShared, dst[lane], n, mem.Store)
		if err != nil {
			return err
		}
		if srcSize > 0 {
			s, err := l.bytesAt(w, pc, lane, spGlobal, a, n, mem.Load)
			if err != nil {
				return err
			}
			copy(d, s[:srcSize])
		}
		for i := srcSize; i < n; i++ {
			d[i] = 0
		}
	}
	l.record(w, o, pc, exec, &src, spGlobal, mem.Load, n)
	l.record(w, o, pc, exec, dst, spShared, mem.Store, n)
	return nil
}

// ftz32 flushes a subnormal float32 to zero of the same sign.
func ftz32(x float32) float32 {
	if b := math.Float32bits(x); b&0x7f800000 == 0 {
		return math.Float32frombits(b & 0x80000000)
	}
	return x
}
