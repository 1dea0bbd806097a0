package sim

// Lowering of memory instructions: ld, ldu, st, atom, red, cvta, isspacep and
// cp.async (the operand and address resolution they share is in decode.go).

import (
	"errors"
	"fmt"

	"github.com/kernelscope/kernelscope/gpu/arith"
	"github.com/kernelscope/kernelscope/gpu/isa"
	"github.com/kernelscope/kernelscope/gpu/mem"
	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// memType validates the element type of a memory access.
func memType(t ptx.Type) (size int, signed bool, err error) {
	size = t.Size()
	if size == 0 || size > 8 {
		return 0, false, fmt.Errorf("memory access of type .%s is not supported", t)
	}
	switch t {
	case ptx.S8, ptx.S16, ptx.S32, ptx.S64:
		signed = true
	}
	return size, signed, nil
}

// ld lowers ld and ldu.
func (fd *fnDecoder) ld(in *ptx.Inst) (op, error) {
	sp, cache, vec, t, _ := fd.memMods()
	if fd.cur.Op == isa.OpLdu {
		cache = mem.NC
	}
	size, signed, err := memType(t)
	if err != nil {
		return op{}, err
	}
	if len(in.Args) < 2 {
		return op{}, errors.New("ld needs a destination and an address")
	}
	if vec > 4 {
		return op{}, errors.New(".v8 loads are not supported")
	}
	o := op{kind: kLd, cache: cache, size: uint8(size), vec: uint8(vec), signed: signed, typ: t}
	dsts := []ptx.Operand{in.Args[0]}
	if in.Args[0].Kind == ptx.OpVec {
		dsts = in.Args[0].Elems
	}
	if len(dsts) != vec {
		return op{}, fmt.Errorf("%d destinations for a .v%d load", len(dsts), vec)
	}
	o.nd = uint8(vec)
	for i, e := range dsts {
		r, m, err := fd.dstReg(e)
		if err != nil {
			return op{}, err
		}
		o.dst[i], o.dmask[i] = r, m
	}
	o.addr, o.space, err = fd.address(in.Args[1], sp)
	if err != nil {
		return op{}, err
	}
	if o.space == spParamKernel && o.addr.reg < 0 {
		p := fd.d.prog
		end := int(o.addr.imm) + size*vec
		if int(o.addr.imm) >= 0 && end <= len(p.params) {
			o.kind = kLdKParam
			for i := 0; i < vec; i++ {
				v := loadLE(p.params[int(o.addr.imm)+i*size:], size)
				if signed {
					v = signExtend(v, size)
				}
				o.kvals[i] = v
			}
		}
	}
	return o, nil
}

// st lowers st.
func (fd *fnDecoder) st(in *ptx.Inst) (op, error) {
	sp, cache, vec, t, _ := fd.memMods()
	size, _, err := memType(t)
	if err != nil {
		return op{}, err
	}
	if len(in.Args) < 2 {
		return op{}, errors.New("st needs an address and a value")
	}
	if vec > 4 {
		return op{}, errors.New(".v8 stores are not supported")
	}
	o := op{kind: kSt, cache: cache, size: uint8(size), vec: uint8(vec), typ: t}
	srcs := []ptx.Operand{in.Args[1]}
	if in.Args[1].Kind == ptx.OpVec {
		srcs = in.Args[1].Elems
	}
	if len(srcs) != vec {
		return op{}, fmt.Errorf("%d values for a .v%d store", len(srcs), vec)
	}
	o.ns = uint8(vec)
	for i, e := range srcs {
		v, err := fd.value(e, t)
		if err != nil {
			return op{}, err
		}
		o.src[i] = v
	}
	o.addr, o.space, err = fd.address(in.Args[0], sp)
	if err != nil {
		return op{}, err
	}
	if o.space == spParamKernel && fd.fn.f.Entry && o.addr.reg < 0 {
		return op{}, errors.New("store to a kernel parameter")
	}
	return o, nil
}

// atom lowers atom and red.
func (fd *fnDecoder) atom(in *ptx.Inst) (op, error) {
	sp, _, vec, t, _ := fd.memMods()
	if vec != 1 {
		return op{}, errors.New("vector atomics are not supported")
	}
	o := op{kind: kAtom, typ: t}
	code, ok := atomCode(fd.cur.Mods.Atom)
	if !ok {
		return op{}, errors.New("unknown atomic operation")
	}
	o.sub = code
	switch t {
	case ptx.U32, ptx.B32, ptx.U64, ptx.B64:
	case ptx.S32, ptx.S64:
		o.signed = true
	case ptx.F32, ptx.F64:
		if o.sub != atomAdd && o.sub != atomExch && o.sub != atomMin && o.sub != atomMax {
			return op{}, fmt.Errorf("atomic %s on .%s is not supported", in.Mods, t)
		}
		o.flt = o.sub != atomExch
	case ptx.F16, ptx.F16x2, ptx.BF16, ptx.BF16x2:
		// atom.add.noftz on half types: the addition is arith's add.rn of that type.
		if o.sub != atomAdd {
			return op{}, fmt.Errorf("atomic %s on .%s is not supported", in.Mods, t)
		}
		ar, err := arith.DecodeParsed(&ptx.Inst{Op: "add", Mods: []string{"rn", t.String()}, Args: []ptx.Operand{
			{Kind: ptx.OpReg, Name: "d"}, {Kind: ptx.OpReg, Name: "a"}, {Kind: ptx.OpReg, Name: "b"}}}, []ptx.Type{t}, []string{"rn"})
		if err != nil {
			return op{}, fmt.Errorf("half-precision atomic add: %w", err)
		}
		o.ar = ar
	default:
		return op{}, fmt.Errorf("atomics on .%s are not supported", t)
	}
	o.size, o.vec = uint8(t.Size()), 1
	args := in.Args
	if fd.cur.Op == isa.OpAtom {
		if len(args) < 3 {
			return op{}, errors.New("atom needs a destination, an address and an operand")
		}
		r, m, err := fd.dstReg(args[0])
		if err != nil {
			return op{}, err
		}
		o.nd, o.dst[0], o.dmask[0] = 1, r, m
		args = args[1:]
	}
	if len(args) < 2 {
		return op{}, errors.New("missing operands")
	}
	var err error
	o.addr, o.space, err = fd.address(args[0], sp)
	if err != nil {
		return op{}, err
	}
	if o.space != spGlobal && o.space != spShared && o.space != spGeneric {
		return op{}, fmt.Errorf("atomics on .%s memory", spaceNames[o.space])
	}
	n := 1
	if o.sub == atomCas {
		n = 2
	}
	if len(args) < 1+n {
		return op{}, errors.New("missing operands")
	}
	for i := 0; i < n; i++ {
		v, err := fd.value(args[1+i], t)
		if err != nil {
			return op{}, err
		}
		o.src[i] = v
	}
	o.ns = uint8(n)
	return o, nil
}

// cvta lowers cvta and cvta.to.
func (fd *fnDecoder) cvta(in *ptx.Inst) (op, error) {
	o := op{kind: kCvta}
	to := fd.cur.Mods.Has(isa.FlagTo)
	sp, _, _, _, _ := fd.memMods()
	if sp == spParamKernel && fd.cur.Mods.Has(isa.FlagParamFunc) {
		sp = spGeneric // cvta takes .param and .param::entry only
	}
	if sp == spGeneric {
		return op{}, errors.New("cvta needs a state space")
	}
	if len(in.Args) != 2 {
		return op{}, errors.New("cvta takes two operands")
	}
	r, m, err := fd.dstReg(in.Args[0])
	if err != nil {
		return op{}, err
	}
	o.nd, o.dst[0], o.dmask[0] = 1, r, m
	if in.Args[1].Kind == ptx.OpSym {
		s, ok := fd.syms[in.Args[1].Name]
		if !ok {
			return op{}, fmt.Errorf("unknown symbol %s", in.Args[1].Name)
		}
		if s.kind == symLocal {
			// cvta.local d, localvar: the frame-relative address converted at run time.
			o.addr = addrSpec{reg: -1, imm: s.addr, frame: 1}
		} else {
			o.addr = addrSpec{reg: -1, imm: s.addr}
		}
	} else {
		v, err := fd.value(in.Args[1], ptx.U64)
		if err != nil {
			return op{}, err
		}
		o.addr = addrSpec{reg: v.reg, imm: v.imm}
		if v.reg >= 0 {
			o.addr.imm = 0
		}
	}
	o.space = sp
	if to {
		o.sub = 1
	}
	return o, nil
}

// isspacep lowers isspacep.space p, a.
func (fd *fnDecoder) isspacep(in *ptx.Inst) (op, error) {
	sp, _, _, _, _ := fd.memMods()
	if len(in.Args) != 2 {
		return op{}, errors.New("isspacep takes two operands")
	}
	r, m, err := fd.dstReg(in.Args[0])
	if err != nil {
		return op{}, err
	}
	v, err := fd.value(in.Args[1], ptx.U64)
	if err != nil {
		return op{}, err
	}
	return op{kind: kIsspacep, space: sp, nd: 1, dst: [4]int32{r}, dmask: [4]uint64{m}, ns: 1, src: [4]val{v}}, nil
}

// cpAsync lowers cp.async (copy, commit_group, wait_group, wait_all). The
// copy is performed when issued, which the wait semantics allow.
func (fd *fnDecoder) cpAsync(in *ptx.Inst) (op, error) {
	m := &fd.cur.Mods
	switch {
	case m.Has(isa.FlagReduce | isa.FlagTensor):
		return fd.tensorCopy(in) // tma.go
	case m.Has(isa.FlagReduce) || !m.Has(isa.FlagAsync):
		return op{}, errors.New("only cp.async is supported")
	case m.Has(isa.FlagBulk):
		return fd.bulkCopy(in)
	case m.Flags&(isa.FlagCommitGroup|isa.FlagWaitGroup|isa.FlagWaitAll) != 0:
		return op{kind: kNop}, nil
	case m.Has(isa.FlagTensor):
		return op{}, errors.New("cp.async.tensor is not supported")
	case m.Has(isa.FlagMbarrier):
		return op{}, errors.New("cp.async.mbarrier is not supported")
	}
	if len(in.Args) < 3 {
		return op{}, errors.New("cp.async needs a destination, a source and a size")
	}
	o := op{kind: kCpAsync, size: 1}
	var err error
	if o.addr, _, err = fd.address(in.Args[0], spShared); err != nil {
		return op{}, err
	}
	a, sp, err := fd.address(in.Args[1], spGlobal)
	if err != nil {
		return op{}, err
	}
	_ = sp
	o.src[0] = val{reg: a.reg, imm: a.imm}
	sz, err := fd.value(in.Args[2], ptx.U32)
	if err != nil || sz.reg >= 0 {
		return op{}, errors.New("cp.async size must be an immediate")
	}
	o.vec = uint8(sz.imm)
	if o.vec != 4 && o.vec != 8 && o.vec != 16 {
		return op{}, errors.New("cp.async size must be 4, 8 or 16")
	}
	o.src[1] = val{reg: -1, imm: sz.imm}
	extra := in.Args[3:]
	if m.Has(isa.FlagCacheHint) && len(extra) > 0 {
		extra = extra[:len(extra)-1] // the cache policy
	}
	if len(extra) > 0 {
		v, err := fd.value(extra[0], ptx.U32)
		if err != nil {
			return op{}, err
		}
		if v.reg >= 0 && fd.fn.regMask[v.reg] == 1 {
			o.sub = 1 // ignore-src predicate: copy zeros when true
		}
		o.src[1] = v
	}
	o.ns = 2
	return o, nil
}

// atomCode is the simulator's code of an atom/red operation (isa.Mods.Atom).
func atomCode(a isa.AtomOp) (uint8, bool) {
	switch a {
	case isa.AtomAdd:
		return atomAdd, true
	case isa.AtomMin:
		return atomMin, true
	case isa.AtomMax:
		return atomMax, true
	case isa.AtomInc:
		return atomInc, true
	case isa.AtomDec:
		return atomDec, true
	case isa.AtomCas:
		return atomCas, true
	case isa.AtomExch:
		return atomExch, true
	case isa.AtomAnd:
		return atomAnd, true
	case isa.AtomOr:
		return atomOr, true
	case isa.AtomXor:
		return atomXor, true
	}
	return 0, false
}
