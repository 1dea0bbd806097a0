package sim

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/kernelscope/kernelscope/gpu/arith"
	"github.com/kernelscope/kernelscope/gpu/mem"
	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// wmmaFrag is one wmma fragment: which matrix, its memory layout, element type and
// the place (row, col) of each element a lane holds. The layouts are the H200's
// (sm_80 and sm_90 code), as recorded by the probe in testdata/measured/tensor.
type wmmaFrag struct {
	use  byte // 'a', 'b', 'c' (c and d share layouts)
	col  bool // the matrix is column-major in memory (for a and b also the fragment's layout)
	elem arith.MMAElem
	regs int // registers per lane
	used int // registers wmma.mma reads (f16 a and b fragments hold their 8 elements twice: x[8..15] = x[0..7])
	per  int // elements per register
	// loc gives the (row, col) of element i of lane's fragment (0 <= i < regs*per).
	loc func(lane, i int) (row, col int)
}

// wmmaLayout builds the fragment description for m16n16k16.
func wmmaLayout(use byte, col bool, e arith.MMAElem) (*wmmaFrag, error) {
	f := &wmmaFrag{use: use, col: col, elem: e, per: e.PerReg()}
	switch {
	case use != 'c' && e == arith.ElemF16:
		f.regs = 8
	case use != 'c' && e == arith.ElemBF16:
		f.regs = 4
	case use == 'c' && e == arith.ElemF32:
		f.regs = 8
	case use == 'c' && e == arith.ElemF16:
		f.regs = 4
	default:
		return nil, fmt.Errorf("wmma fragments of .%s for matrix %c are not modelled (supported: m16n16k16 .f16/.bf16 a and b, .f16/.f32 c and d)", e, use)
	}
	f.used = f.regs
	if use != 'c' && e == arith.ElemF16 {
		f.used = f.regs / 2
	}
	f.loc = wmmaLoc(use, col, e)
	return f, nil
}

// wmmaLoc is the H200's element placement of an m16n16k16 fragment.
func wmmaLoc(use byte, col bool, e arith.MMAElem) func(lane, i int) (int, int) {
	switch use {
	case 'a':
		if e == arith.ElemF16 {
			// 16 elements: the m16n8k16 A fragment (8 elements), held twice
			return func(lane, i int) (int, int) {
				g, t := lane>>2, lane&3
				i &= 7
				return g + 8*((i>>1)&1), 2*t + i&1 + 8*(i>>2)
			}
		}
		return func(lane, i int) (int, int) {
			g, t := lane>>2, lane&3
			return g + 8*((i>>1)&1), 2*t + i&1 + 8*(i>>2)
		}
	case 'b':
		// two m16n8k16 B fragments (n 0-7, n 8-15)
		if e == arith.ElemF16 {
			return func(lane, i int) (int, int) {
				g, t := lane>>2, lane&3
				return 2*t + i&1 + 8*((i>>1)&1), g + 8*(i>>2&1)
			}
		}
		return func(lane, i int) (int, int) {
			g, t := lane>>2, lane&3
			return 2*t + i&1 + 8*((i>>1)&1), g + 8*(i>>2)
		}
	}
	// accumulators: two m16n8 C fragments (n 0-7, n 8-15)
	return func(lane, i int) (int, int) {
		g, t := lane>>2, lane&3
		return g + 8*((i>>1)&1), 2*t + i&1 + 8*(i>>2)
	}
}

// wmmaOp lowers wmma.load, wmma.store and wmma.mma.
func (fd *fnDecoder) wmmaOp(in *ptx.Inst) (op, error) {
	if len(in.Mods) == 0 {
		return op{}, errors.New("wmma needs .load, .store or .mma")
	}
	var use byte
	var lays []bool
	var types []arith.MMAElem
	sp := spGeneric
	shape := ""
	satfinite := false
	for _, m := range in.Mods[1:] {
		switch m {
		case "sync", "aligned":
		case "a", "b", "c", "d":
			use = m[0]
		case "row":
			lays = append(lays, false)
		case "col":
			lays = append(lays, true)
		case "global":
			sp = spGlobal
		case "shared", "shared::cta":
			sp = spShared
		case "satfinite":
			satfinite = true
		case "m16n16k16", "m32n8k16", "m8n32k16", "m16n16k8", "m8n8k4", "m8n8k32", "m8n8k128":
			shape = m
		default:
			e := arith.ElemNone
			switch m {
			case "f16":
				e = arith.ElemF16
			case "bf16":
				e = arith.ElemBF16
			case "f32":
				e = arith.ElemF32
			}
			if e == arith.ElemNone {
				return op{}, fmt.Errorf("modifier .%s is not modelled for wmma (supported: m16n16k16 with .f16 and .bf16 inputs, .f16 and .f32 accumulators)", m)
			}
			types = append(types, e)
		}
	}
	if shape != "m16n16k16" {
		return op{}, fmt.Errorf("wmma shape .%s is not modelled (supported: .m16n16k16)", shape)
	}
	if satfinite {
		return op{}, errors.New("wmma .satfinite is not modelled")
	}
	t := &tensorOp{}
	switch in.Mods[0] {
	case "load", "store":
		if len(lays) != 1 || len(types) != 1 || use == 0 {
			return op{}, errors.New("expected .a/.b/.c/.d, one layout and one type")
		}
		if use == 'd' {
			use = 'c'
		}
		f, err := wmmaLayout(use, lays[0], types[0])
		if err != nil {
			return op{}, err
		}
		t.wm = f
		fragArg, addrArg := 0, 1
		o := op{kind: kTensor, sub: tcWmmaLoad, tc: t}
		if in.Mods[0] == "store" {
			fragArg, addrArg = 1, 0
			o.sub = tcWmmaStore
			if in.Mods[1] != "d" {
				return op{}, errors.New("wmma.store stores .d fragments")
			}
		} else if use == 'c' && in.Mods[1] != "c" {
			return op{}, errors.New("wmma.load loads .a, .b or .c fragments")
		}
		if len(in.Args) != 2 && len(in.Args) != 3 {
			return op{}, errors.New("takes a fragment, an address and an optional stride")
		}
		if o.sub == tcWmmaLoad {
			if err := fd.fragDsts(in.Args[fragArg], f.regs, "the fragment", t); err != nil {
				return op{}, err
			}
		} else {
			if t.a, err = fd.fragRegs(in.Args[fragArg], f.regs, "the fragment"); err != nil {
				return op{}, err
			}
		}
		if o.addr, o.space, err = fd.address(in.Args[addrArg], sp); err != nil {
			return op{}, err
		}
		if len(in.Args) == 3 {
			if t.stride, err = fd.value(in.Args[2], ptx.U32); err != nil {
				return op{}, err
			}
			t.hasStride = true
		}
		o.size = uint8(f.elem.Bits() / 8)
		o.vec = 1
		return o, nil
	case "mma":
		if len(lays) != 2 {
			return op{}, errors.New("wmma.mma needs the layouts of a and b")
		}
		var ta, tc, td arith.MMAElem
		switch len(types) {
		case 2: // f16 inputs: .dtype.ctype
			td, tc, ta = types[0], types[1], arith.ElemF16
		case 4:
			td, ta, tc = types[0], types[1], types[3]
			if types[2] != ta {
				return op{}, errors.New("wmma.mma with different a and b types")
			}
		default:
			return op{}, errors.New("expected .dtype.ctype or .dtype.atype.btype.ctype")
		}
		if ta == arith.ElemBF16 && (tc != arith.ElemF32 || td != arith.ElemF32) {
			return op{}, errors.New("bf16 wmma.mma accumulates in f32")
		}
		var err error
		if t.wa, err = wmmaLayout('a', lays[0], ta); err != nil {
			return op{}, err
		}
		if t.wb, err = wmmaLayout('b', lays[1], ta); err != nil {
			return op{}, err
		}
		if t.wc, err = wmmaLayout('c', false, tc); err != nil {
			return op{}, err
		}
		if t.wm, err = wmmaLayout('c', false, td); err != nil {
			return op{}, err
		}
		m := &arith.MMA{M: 16, N: 16, K: 16, A: ta, B: ta, C: tc, D: td}
		m.Model = arith.DefaultModel(ta, 16)
		t.mma = m
		if len(in.Args) != 4 {
			return op{}, errors.New("wmma.mma takes d, a, b, c")
		}
		if err := fd.fragDsts(in.Args[0], t.wm.regs, "the D fragment", t); err != nil {
			return op{}, err
		}
		if t.a, err = fd.fragRegs(in.Args[1], t.wa.regs, "the A fragment"); err != nil {
			return op{}, err
		}
		if t.b, err = fd.fragRegs(in.Args[2], t.wb.regs, "the B fragment"); err != nil {
			return op{}, err
		}
		if t.c, err = fd.fragRegs(in.Args[3], t.wc.regs, "the C fragment"); err != nil {
			return op{}, err
		}
		return op{kind: kTensor, sub: tcWmmaMMA, tc: t}, nil
	}
	return op{}, fmt.Errorf("wmma.%s is not modelled", strings.Join(in.Mods, "."))
}

// wmmaMem runs wmma.load and wmma.store: element (row, col) of the matrix is at
// p + (row*stride + col)*size (row-major) or p + (col*stride + row)*size.
func (l *launcher) wmmaMem(w *warp, o *op, pc int32, r []uint64) error {
	t := o.tc
	f := t.wm
	l.stats.MemoryInstructions++
	size := f.elem.Bits() / 8
	kind := mem.Load
	if o.sub == tcWmmaStore {
		kind = mem.Store
	}
	nel := f.used * f.per // f16 a and b: the second copy is not loaded
	var res [32 * 8]uint64
	var addr [16][32]uint64
	var spc [16][32]space
	for i := 0; i < nel; i++ {
		for lane := 0; lane < 32; lane++ {
			row, col := f.loc(lane, i)
			stride := uint64(16)
			if t.hasStride {
				stride = t.stride.get(r, lane) & 0xffffffff
			}
			off := uint64(row)*stride + uint64(col)
			if f.col {
				off = uint64(col)*stride + uint64(row)
			}
			a := o.addr.imm
			if o.addr.reg >= 0 {
				a += r[int(o.addr.reg)*32+lane]
			}
			a += off * uint64(size)
			sp := o.space
			if sp == spGeneric {
				sp, a = classify(a)
			}
			addr[i][lane], spc[i][lane] = a, sp
			b, err := l.bytesAt(w, pc, lane, sp, a, size, kind)
			if err != nil {
				return err
			}
			ri, sh := i/f.per, uint(i%f.per*f.elem.Bits())
			if kind == mem.Load {
				res[lane*f.regs+ri] |= loadLE(b, size) << sh
			} else {
				storeLE(b, size, t.a[ri].get(r, lane)>>sh)
			}
		}
	}
	if kind == mem.Load {
		for ri, d := range t.dst {
			if d < 0 {
				continue
			}
			reg := ri % f.used // the second copy of an f16 a or b fragment repeats the first
			for lane := 0; lane < 32; lane++ {
				r[int(d)*32+lane] = res[lane*f.regs+reg] & t.dmask[ri]
			}
		}
	}
	l.wmmaRecord(w, o, pc, nel, size, kind, &addr, &spc)
	return nil
}

// wmmaRecord reports a wmma load or store as the accesses ptxas makes of it (as the
// H200's counters see them): elements adjacent in memory for every lane form one
// access of up to 16 bytes; a 16-bit register whose two elements are not adjacent
// (the transposed layout) is loaded as 32-bit words along memory and transposed in
// registers (LDG + MOVM in the SASS), one 4-byte access per lane.
func (l *launcher) wmmaRecord(w *warp, o *op, pc int32, nel, size int, kind mem.Kind, addr *[16][32]uint64, spc *[16][32]space) {
	adjacent := func(i, n int) bool { // elements i..i+n-1 contiguous and aligned to n*size for every lane
		if i+n > nel || n*size > 16 {
			return false
		}
		for lane := 0; lane < 32; lane++ {
			if addr[i][lane]%uint64(n*size) != 0 || addr[i+n-1][lane] != addr[i][lane]+uint64((n-1)*size) || spc[i+n-1][lane] != spc[i][lane] {
				return false
			}
		}
		return true
	}
	var acc [32]uint64
	for i := 0; i < nel; {
		n := 1
		for adjacent(i, 2*n) {
			n *= 2
		}
		bytesPer := n * size
		copy(acc[:], addr[i][:])
		if n == 1 && size == 2 && i%2 == 0 && i+1 < nel {
			// the 64 elements of this register, sorted, pair up along memory
			var all [64]uint64
			for lane := 0; lane < 32; lane++ {
				all[2*lane], all[2*lane+1] = addr[i][lane], addr[i+1][lane]
			}
			slices.Sort(all[:])
			ok := true
			for lane := 0; lane < 32 && ok; lane++ {
				ok = all[2*lane]%4 == 0 && all[2*lane+1] == all[2*lane]+2
			}
			if ok {
				for lane := 0; lane < 32; lane++ {
					acc[lane] = all[2*lane]
				}
				n, bytesPer = 2, 4
			}
		}
		var masks [7]uint32
		for lane := 0; lane < 32; lane++ {
			masks[spc[i][lane]] |= 1 << uint(lane)
		}
		for sp, mk := range masks {
			if mk != 0 {
				l.record(w, o, pc, mk, &acc, space(sp), kind, bytesPer)
			}
		}
		i += n
	}
}

// wmmaExec runs wmma.mma: D = A·B + C over 16x16 matrices with the tensor-core arithmetic.
func (l *launcher) wmmaExec(t *tensorOp, r []uint64) {
	m := t.mma
	var a, b, c, d [256]uint64
	gather(t.a[:t.wa.used], t.wa.elem, 16, t.wa.loc, r, a[:])
	gather(t.b[:t.wb.used], t.wb.elem, 16, t.wb.loc, r, b[:])
	gather(t.c, t.wc.elem, 16, t.wc.loc, r, c[:])
	m.Compute(a[:], b[:], c[:], d[:])
	scatter(t, t.wm.elem, 16, t.wm.loc, r, d[:])
}
