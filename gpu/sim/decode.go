package sim

// Lowering: each PTX instruction of a function becomes one op with its
// registers, immediates, addresses and branch targets resolved. The memory
// layout the lowering reads (symbols, frames, parameters) is in layout.go.

import (
	"errors"
	"fmt"

	"github.com/kernelscope/kernelscope/gpu/arith"
	"github.com/kernelscope/kernelscope/gpu/isa"
	"github.com/kernelscope/kernelscope/gpu/mem"
	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// fnDecoder lowers the body of one function.
type fnDecoder struct {
	d      *decoder
	fn     *function
	syms   map[string]sym
	regs   map[string]int32
	labels map[string]int
	cfg    *ptx.CFG
	cur    *isa.Inst            // the decoded form of the instruction being lowered
	fused  map[int]arith.Fusion // adds/subs ptxas contracts with their mul (arith.Contractions), by index
	fuse   *arith.Fusion        // the fusion being lowered (arithOp)
}

// lower appends fn's ops (plus an implicit ret at the end) to the program.
func (d *decoder) lower(fn *function, syms map[string]sym) error {
	f := fn.f
	fd := &fnDecoder{d: d, fn: fn, syms: syms, regs: make(map[string]int32, fn.nregs), labels: map[string]int{}}
	for i, n := range fn.regNames {
		fd.regs[n] = int32(i)
	}
	for _, l := range f.Labels {
		fd.labels[l.Name] = l.Index
	}
	g, err := ptx.BuildCFG(f)
	if err != nil {
		return launchError(InvalidLaunch, "control-flow graph of %s: %v", f.Name, err)
	}
	fd.cfg = g
	fd.fused = arith.Contractions(f, g.BlockOf)
	p := d.prog
	fn.base = int32(len(p.ops))
	for i, in := range f.Insts {
		fd.cur = &p.dec.Insts[int(fn.base)+i]
		o := fd.inst(in, i)
		if o.clock {
			p.hasClock = true
		}
		p.ops = append(p.ops, o)
		p.info = append(p.info, opInfo{fn: fn.index, idx: i, line: fd.cur.Line, loc: fd.cur.Loc, text: fd.cur.Text})
	}
	ret := op{kind: kRet, guard: -1}
	if f.Entry {
		ret.kind = kExit
	}
	p.ops = append(p.ops, ret)
	p.info = append(p.info, opInfo{fn: fn.index, idx: len(f.Insts), line: int(f.EndPos.Line), text: "ret (end of body)"})
	return nil
}

// unsupported makes an op that fails with msg, prefixed by the instruction's
// text ("ld.global.f32"), when executed.
func unsupported(text string, format string, args ...any) op {
	return op{kind: kUnsupported, guard: -1, msg: fmt.Sprintf("%s: %s", text, fmt.Sprintf(format, args...))}
}

// reg resolves a register or special register operand.
func (fd *fnDecoder) reg(o ptx.Operand) (int32, bool) {
	switch o.Kind {
	case ptx.OpReg:
		name := o.Name
		if o.Comp != "" {
			name += "." + o.Comp
		}
		r, ok := fd.regs[name]
		return r, ok
	case ptx.OpSpecial:
		return hiddenReg(o.Name, o.Comp)
	}
	return 0, false
}

// value resolves a source operand of type t: register, immediate or symbol address.
func (fd *fnDecoder) value(o ptx.Operand, t ptx.Type) (val, error) {
	switch o.Kind {
	case ptx.OpReg, ptx.OpSpecial:
		r, ok := fd.reg(o)
		if !ok {
			return val{}, fmt.Errorf("unknown register %s", o.Name)
		}
		return val{reg: r, not: o.Not}, nil
	case ptx.OpImm, ptx.OpFloat:
		v := immBits(o, t)
		if o.Not {
			v ^= 1
		}
		return val{reg: -1, imm: v}, nil
	case ptx.OpSym:
		s, ok := fd.syms[o.Name]
		if !ok {
			return val{}, fmt.Errorf("unknown symbol %s", o.Name)
		}
		if s.kind == symLocal || s.kind == symFParam {
			return val{}, fmt.Errorf("address of frame variable %s used as a value", o.Name)
		}
		return val{reg: -1, imm: symValue(s, false)}, nil
	}
	return val{}, fmt.Errorf("unexpected operand")
}

// dstReg resolves a destination (register or sink: -1).
func (fd *fnDecoder) dstReg(o ptx.Operand) (int32, uint64, error) {
	if o.Kind == ptx.OpSink {
		return -1, 0, nil
	}
	r, ok := fd.reg(o)
	if !ok || o.Kind != ptx.OpReg {
		return 0, 0, fmt.Errorf("destination %s is not a register", o.Name)
	}
	return r, fd.fn.regMask[r], nil
}

// address resolves an [addr] operand; sp is the instruction's space (generic refined by the symbol).
func (fd *fnDecoder) address(o ptx.Operand, sp space) (addrSpec, space, error) {
	if o.Kind != ptx.OpAddr {
		return addrSpec{}, sp, fmt.Errorf("expected an address operand")
	}
	a := addrSpec{reg: -1, imm: uint64(o.Imm)}
	switch {
	case o.BaseReg:
		r, ok := fd.reg(ptx.Operand{Kind: ptx.OpReg, Name: o.Name})
		if !ok {
			return a, sp, fmt.Errorf("unknown register %s", o.Name)
		}
		a.reg = r
		a.wrap = sp == spShared && fd.fn.regMask[r] == widthMask(32)
		if sp == spParamKernel && !fd.fn.f.Entry {
			sp = spParamFrame
			a.frame = 2
		}
	case o.Name != "":
		s, ok := fd.syms[o.Name]
		if !ok {
			return a, sp, fmt.Errorf("unknown symbol %s", o.Name)
		}
		switch s.kind {
		case symFParam:
			a.imm += s.addr
			if sp == spGeneric {
				return a, sp, fmt.Errorf("generic access to frame parameter %s", o.Name)
			}
			sp, a.frame = spParamFrame, 2
		case symLocal:
			a.imm += s.addr
			if sp == spGeneric {
				a.imm += localWin
			}
			a.frame = 1
		case symFunc:
			return a, sp, fmt.Errorf("%s is a function, not a variable", o.Name)
		default:
			a.imm += symValue(s, sp == spGeneric)
		}
	}
	return a, sp, nil
}

// memMods is the space, cache operator, vector width, type and other
// modifiers of the ld/st/atom/red/isspacep being lowered, from its decoded form.
func (fd *fnDecoder) memMods() (sp space, cache mem.CacheOp, vec int, t ptx.Type, words []string) {
	m := &fd.cur.Mods
	switch m.Space {
	case ptx.SpaceGlobal:
		sp = spGlobal
	case ptx.SpaceShared, ptx.SpaceSharedCluster:
		sp = spShared
	case ptx.SpaceLocal:
		sp = spLocal
	case ptx.SpaceConst:
		sp = spConst
	case ptx.SpaceParam:
		sp = spParamKernel
	}
	return sp, m.Cache, int(m.Vec), m.Type, m.Words
}

// inst lowers one instruction.
func (fd *fnDecoder) inst(in *ptx.Inst, idx int) op {
	for _, a := range in.Args {
		if a.Kind == ptx.OpSpecial {
			if why := notSimulated(a.Name); why != "" {
				return unsupported(fd.cur.Text, "reads %s, which the simulator gives no value: %s", a.Name, why)
			}
			if a.Name == "%envreg1" || a.Name == "%envreg2" {
				fd.d.prog.readsEnvreg = true
			}
		}
	}
	o, err := fd.inst1(in, idx)
	if err != nil {
		return unsupported(fd.cur.Text, "%v", err)
	}
	if in.Guard != "" {
		r, ok := fd.regs[in.Guard]
		if !ok {
			return unsupported(fd.cur.Text, "unknown guard predicate %s", in.Guard)
		}
		o.guard, o.gneg = r, in.GuardNeg
	} else {
		o.guard = -1
	}
	return o
}

// inst1 lowers one instruction without its guard.
func (fd *fnDecoder) inst1(in *ptx.Inst, idx int) (op, error) {
	if fu, ok := fd.fused[idx]; ok {
		// ptxas fuses this add/sub with the mul feeding it into one fma.
		fd.fuse = &fu
		o, err := fd.arithOp(fu.Inst)
		fd.fuse = nil
		return o, err
	}
	switch lowering[fd.cur.Op] {
	case lowerLd:
		return fd.ld(in)
	case lowerSt:
		return fd.st(in)
	case lowerAtom:
		return fd.atom(in)
	case lowerCvta:
		return fd.cvta(in)
	case lowerIsspacep:
		return fd.isspacep(in)
	case lowerBra:
		return fd.bra(in, idx)
	case lowerBrx:
		return fd.brx(in, idx)
	case lowerCall:
		return fd.callOp(in)
	case lowerRet:
		if fd.fn.f.Entry {
			return op{kind: kExit}, nil
		}
		return op{kind: kRet}, nil
	case lowerExit:
		return op{kind: kExit}, nil
	case lowerTrap:
		return op{kind: kTrap}, nil
	case lowerBar:
		return fd.bar(in)
	case lowerMapa:
		return fd.mapaOp(in)
	case lowerNop:
		return op{kind: kNop}, nil
	case lowerCreatePolicy:
		if len(in.Args) == 0 {
			return op{}, errors.New("missing destination")
		}
		r, m, err := fd.dstReg(in.Args[0])
		if err != nil {
			return op{}, err
		}
		return op{kind: kCreatePolicy, nd: 1, dst: [4]int32{r}, dmask: [4]uint64{m}}, nil
	case lowerShfl:
		return fd.shfl(in)
	case lowerVote:
		return fd.vote(in)
	case lowerMatch:
		return fd.match(in)
	case lowerRedux:
		return fd.redux(in)
	case lowerActivemask:
		if len(in.Args) != 1 {
			return op{}, errors.New("activemask takes one destination")
		}
		r, m, err := fd.dstReg(in.Args[0])
		if err != nil {
			return op{}, err
		}
		return op{kind: kActivemask, nd: 1, dst: [4]int32{r}, dmask: [4]uint64{m}}, nil
	case lowerElect:
		return fd.elect(in)
	case lowerCp:
		return fd.cpAsync(in)
	case lowerTensor:
		return fd.tensor(in)
	case lowerUnsupported:
		return op{}, errNotSimulated
	case lowerMov:
		if len(in.Args) == 2 && (in.Args[0].Kind == ptx.OpVec || in.Args[1].Kind == ptx.OpVec) {
			return fd.packOp(in)
		}
		if len(in.Args) == 2 && in.Args[1].Kind == ptx.OpSym {
			return fd.movSym(in)
		}
	}
	return fd.arithOp(in)
}

// arithOp lowers a lane-local instruction through package arith.
func (fd *fnDecoder) arithOp(in *ptx.Inst) (op, error) {
	// Symbols become immediates (their addresses); special registers are hidden registers.
	cp := *in
	cp.Args = append([]ptx.Operand(nil), in.Args...)
	clock := false
	for i, a := range cp.Args {
		switch a.Kind {
		case ptx.OpSym:
			s, ok := fd.syms[a.Name]
			if !ok {
				return op{}, fmt.Errorf("unknown symbol %s", a.Name)
			}
			if s.kind == symLocal || s.kind == symFParam {
				return op{}, fmt.Errorf("frame variable %s used as an operand", a.Name)
			}
			cp.Args[i] = ptx.Operand{Kind: ptx.OpImm, Imm: int64(symValue(s, false))}
		case ptx.OpSpecial:
			h, ok := hiddenReg(a.Name, a.Comp)
			if !ok {
				return op{}, fmt.Errorf("unknown special register %s", a.Name)
			}
			if isClockReg(h) {
				clock = true
			}
			cp.Args[i] = ptx.Operand{Kind: ptx.OpReg, Name: hiddenNames[h], Not: a.Not}
		}
	}
	var ar *arith.Op
	var err error
	if fd.fuse != nil {
		fu := *fd.fuse
		fu.Inst = &cp
		ar, err = arith.DecodeFused(fu)
	} else if fd.cur != nil && fd.cur.PTX == in {
		ar, err = arith.DecodeParsed(&cp, fd.cur.Mods.Types, fd.cur.Mods.Words) // modifiers parsed once, in gpu/isa
	} else {
		ar, err = arith.Decode(&cp)
	}
	if err != nil {
		if errors.Is(err, arith.ErrNotArith) {
			return op{}, fmt.Errorf("instruction is not implemented by the simulator")
		}
		return op{}, err
	}
	o := op{kind: kArith, ar: ar, clock: clock}
	o.ns = uint8(ar.NumSrc())
	for i := 0; i < ar.NumSrc(); i++ {
		if bits, ok := ar.Const(i); ok {
			o.src[i] = val{reg: -1, imm: bits}
			continue
		}
		ai := ar.SrcArg(i)
		if ai < 0 || ai >= len(cp.Args) {
			return op{}, fmt.Errorf("source %d out of range", i)
		}
		v, err := fd.value(cp.Args[ai], ptx.TypeNone)
		if err != nil {
			return op{}, err
		}
		o.src[i] = v
	}
	if len(cp.Args) == 0 {
		return op{}, errors.New("missing destination")
	}
	o.nd = uint8(ar.NumDst())
	if ar.NumDst() == 2 {
		if cp.Args[0].Kind != ptx.OpPair || len(cp.Args[0].Elems) != 2 {
			return op{}, errors.New("expected a p|q destination")
		}
		for k := 0; k < 2; k++ {
			r, m, err := fd.dstReg(cp.Args[0].Elems[k])
			if err != nil {
				return op{}, err
			}
			o.dst[k], o.dmask[k] = r, m
		}
	} else {
		r, m, err := fd.dstReg(cp.Args[0])
		if err != nil {
			return op{}, err
		}
		o.dst[0], o.dmask[0] = r, m
	}
	o.regSrcs = o.ns >= 1 && o.ns <= 3
	for i := 0; i < int(o.ns); i++ {
		if o.src[i].reg < 0 || o.src[i].not {
			o.regSrcs = false
		}
	}
	if fd.fuse == nil && fd.cur != nil && fd.cur.PTX == in {
		fastPath(fd.cur.Op, &fd.cur.Mods, &o)
	}
	return o, nil
}

// fastPath replaces a few hot integer instructions, whose semantics are
// trivially the same, by dedicated ops: the opcode and modifiers are the
// instruction's decoded form (a fused add is an fma, never one of them).
func fastPath(opc isa.Opcode, m *isa.Mods, o *op) {
	if o.nd != 1 || o.dst[0] < 0 || o.ar.ReadsCC() || o.ar.WritesCC() {
		return
	}
	// only reports a modifier list of exactly the words in flags (each once) and one type of ts.
	only := func(flags isa.Flag, nwords int, ts ...ptx.Type) bool {
		if len(m.Words) != nwords || m.Flags != flags || len(m.Types) != 1 {
			return false
		}
		for _, t := range ts {
			if m.Types[0] == t {
				return true
			}
		}
		return false
	}
	for i := 0; i < int(o.ns); i++ {
		if o.src[i].not {
			return
		}
	}
	switch {
	case opc == isa.OpMov && o.ns == 1:
		if o.src[0].reg < 0 {
			o.kind = kMovImm
		} else {
			o.kind = kMovReg
		}
	case opc == isa.OpAdd && only(0, 0, ptx.S32, ptx.U32):
		o.kind = kAddS32
	case opc == isa.OpAdd && only(0, 0, ptx.S64, ptx.U64):
		o.kind = kAddS64
	case opc == isa.OpMad && only(isa.FlagLo, 1, ptx.S32, ptx.U32):
		o.kind = kMadLo32
	case opc == isa.OpMul && only(isa.FlagWide, 1, ptx.U32):
		o.kind = kMulWideU32
	case opc == isa.OpMul && only(isa.FlagWide, 1, ptx.S32):
		o.kind = kMulWideS32
	case opc == isa.OpShl && only(0, 0, ptx.B32):
		o.kind = kShl32
	case opc == isa.OpSetp && len(m.Words) == 1 && len(m.Types) == 1 && (m.Types[0] == ptx.S32 || m.Types[0] == ptx.U32):
		c := setpCode(m.Cmp, m.Types[0] == ptx.S32)
		if c != 0 {
			o.kind, o.sub = kSetp32, c
		}
	}
}

// setp fast-path comparison codes (0 = none).
const (
	cmpEq uint8 = iota + 1
	cmpNe
	cmpLtS
	cmpLeS
	cmpGtS
	cmpGeS
	cmpLtU
	cmpLeU
	cmpGtU
	cmpGeU
)

// setpCode is the fast-path code of an integer comparison (0: none).
func setpCode(c isa.Cmp, signed bool) uint8 {
	switch c {
	case isa.CmpEq:
		return cmpEq
	case isa.CmpNe:
		return cmpNe
	}
	var base uint8
	switch c {
	case isa.CmpLt, isa.CmpLo:
		base = 0
	case isa.CmpLe, isa.CmpLs:
		base = 1
	case isa.CmpGt, isa.CmpHi:
		base = 2
	case isa.CmpGe, isa.CmpHs:
		base = 3
	default:
		return 0
	}
	if signed && (c == isa.CmpLo || c == isa.CmpLs || c == isa.CmpHi || c == isa.CmpHs) {
		signed = false
	}
	if signed {
		return cmpLtS + base
	}
	return cmpLtU + base
}

// movSym lowers mov d, symbol (the symbol's address in its space).
func (fd *fnDecoder) movSym(in *ptx.Inst) (op, error) {
	r, m, err := fd.dstReg(in.Args[0])
	if err != nil {
		return op{}, err
	}
	s, ok := fd.syms[in.Args[1].Name]
	if !ok {
		return op{}, fmt.Errorf("unknown symbol %s", in.Args[1].Name)
	}
	o := op{nd: 1, dst: [4]int32{r}, dmask: [4]uint64{m}, src: [4]val{{reg: -1, imm: s.addr}}}
	switch s.kind {
	case symLocal:
		o.kind = kMovLocalSym
	case symFParam:
		o.kind = kMovParamSym
	default:
		o.kind = kMovImm
	}
	return o, nil
}

// packOp lowers mov with a vector operand: pack {a,b,..} into d or unpack s into {a,b,..}.
func (fd *fnDecoder) packOp(in *ptx.Inst) (op, error) {
	t := fd.cur.Mods.Type // the last type modifier
	total := t.Size()
	if total == 0 {
		return op{}, errors.New("pack/unpack needs a sized type")
	}
	if in.Args[0].Kind == ptx.OpVec {
		els := in.Args[0].Elems
		if len(els) == 0 || len(els) > 4 || total%len(els) != 0 {
			return op{}, errors.New("bad unpack vector")
		}
		o := op{kind: kUnpack, nd: uint8(len(els)), size: uint8(total / len(els))}
		for i, e := range els {
			r, m, err := fd.dstReg(e)
			if err != nil {
				return op{}, err
			}
			o.dst[i], o.dmask[i] = r, m
		}
		v, err := fd.value(in.Args[1], t)
		if err != nil {
			return op{}, err
		}
		o.ns, o.src[0] = 1, v
		return o, nil
	}
	els := in.Args[1].Elems
	if len(els) == 0 || len(els) > 4 || total%len(els) != 0 {
		return op{}, errors.New("bad pack vector")
	}
	r, m, err := fd.dstReg(in.Args[0])
	if err != nil {
		return op{}, err
	}
	o := op{kind: kPack, nd: 1, dst: [4]int32{r}, dmask: [4]uint64{m}, ns: uint8(len(els)), size: uint8(total / len(els))}
	for i, e := range els {
		v, err := fd.value(e, ptx.TypeNone)
		if err != nil {
			return op{}, err
		}
		o.src[i] = v
	}
	return o, nil
}

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

// pcOf maps an instruction index of this function to a program pc (-1 stays -1).
func (fd *fnDecoder) pcOf(i int) int32 {
	if i < 0 {
		return -1
	}
	return fd.fn.base + int32(i)
}

// bra lowers bra.
func (fd *fnDecoder) bra(in *ptx.Inst, idx int) (op, error) {
	if len(in.Args) != 1 {
		return op{}, errors.New("bra takes one target")
	}
	t, ok := fd.labels[in.Args[0].Name]
	if !ok {
		return op{}, fmt.Errorf("unknown label %s", in.Args[0].Name)
	}
	return op{kind: kBra, target: fd.pcOf(t), reconv: fd.pcOf(fd.cfg.Reconv(idx))}, nil
}

// brx lowers brx.idx index, tlist.
func (fd *fnDecoder) brx(in *ptx.Inst, idx int) (op, error) {
	if len(in.Args) != 2 {
		return op{}, errors.New("brx.idx takes an index and a target list")
	}
	v, err := fd.value(in.Args[0], ptx.U32)
	if err != nil {
		return op{}, err
	}
	var list *ptx.Targets
	for _, t := range fd.fn.f.Targets {
		if t.Name == in.Args[1].Name && !t.Call {
			list = t
		}
	}
	if list == nil {
		return op{}, fmt.Errorf("no .branchtargets list %s", in.Args[1].Name)
	}
	o := op{kind: kBrx, ns: 1, src: [4]val{v}, reconv: fd.pcOf(fd.cfg.Reconv(idx))}
	for _, l := range list.Labels {
		t, ok := fd.labels[l]
		if !ok {
			return op{}, fmt.Errorf("unknown label %s", l)
		}
		o.targets = append(o.targets, fd.pcOf(t))
	}
	return o, nil
}

// callOp lowers call (rets), func, (args).
func (fd *fnDecoder) callOp(in *ptx.Inst) (op, error) {
	var rets, args []ptx.Operand
	var target *ptx.Operand
	for i := range in.Args {
		a := &in.Args[i]
		switch {
		case a.Kind == ptx.OpList && target == nil:
			rets = a.Elems
		case a.Kind == ptx.OpList:
			args = a.Elems
		case target == nil:
			target = a
		}
	}
	if target == nil {
		return op{}, errors.New("call without a target")
	}
	if target.Kind == ptx.OpReg {
		return fd.indirectCall(in, target, rets, args)
	}
	if target.Kind != ptx.OpSym {
		return op{}, errors.New("call target is neither a function nor a register")
	}
	callee, ok := fd.d.fnByName[target.Name]
	if !ok {
		return fd.builtinCall(target.Name, rets, args)
	}
	if len(args) != len(callee.params) || len(rets) != len(callee.rets) {
		return op{}, fmt.Errorf("call to %s with %d arguments and %d returns; it takes %d and %d",
			target.Name, len(args), len(rets), len(callee.params), len(callee.rets))
	}
	ci := &callInfo{callee: callee}
	err := fd.callArgs(ci, args, rets, func(i int) int { return callee.params[i].size }, func(i int) int { return callee.rets[i].size })
	if err != nil {
		return op{}, err
	}
	return op{kind: kCall, call: ci}, nil
}

// callArg lowers one argument (or, with ret, return) operand of a call for a
// parameter of size bytes: a .param variable, a register or an immediate.
func (fd *fnDecoder) callArg(a ptx.Operand, size int, ret bool) (callArg, error) {
	if a.Kind == ptx.OpSym {
		sy, ok := fd.syms[a.Name]
		if !ok || sy.kind != symFParam {
			return callArg{}, fmt.Errorf("call operand %s is not a .param variable", a.Name)
		}
		if sy.size < size {
			return callArg{}, fmt.Errorf("call operand %s is %d bytes; the parameter needs %d", a.Name, sy.size, size)
		}
		return callArg{param: true, off: int(sy.addr), size: size}, nil
	}
	if ret {
		r, m, err := fd.dstReg(a)
		if err != nil {
			return callArg{}, err
		}
		return callArg{v: val{reg: r}, dmask: m, size: size}, nil
	}
	v, err := fd.value(a, ptx.TypeNone)
	if err != nil {
		return callArg{}, err
	}
	return callArg{v: v, size: size}, nil
}

// callArgs lowers a call's argument and return lists; argSize and retSize give
// the parameter sizes by position.
func (fd *fnDecoder) callArgs(ci *callInfo, args, rets []ptx.Operand, argSize, retSize func(int) int) error {
	for i, a := range args {
		c, err := fd.callArg(a, argSize(i), false)
		if err != nil {
			return err
		}
		ci.args = append(ci.args, c)
	}
	for i, a := range rets {
		c, err := fd.callArg(a, retSize(i), true)
		if err != nil {
			return err
		}
		ci.rets = append(ci.rets, c)
	}
	return nil
}

// bar lowers bar/barrier sync, arrive and red.
func (fd *fnDecoder) bar(in *ptx.Inst) (op, error) {
	o := op{kind: kBar}
	m := &fd.cur.Mods
	if m.Has(isa.FlagWarp) {
		o := op{kind: kWarpSync, src: [4]val{{reg: -1, imm: 0xffffffff}}}
		if len(in.Args) == 1 {
			v, err := fd.value(in.Args[0], ptx.B32)
			if err != nil {
				return op{}, err
			}
			o.src[0], o.ns = v, 1
		}
		return o, nil
	}
	if m.Has(isa.FlagCluster) {
		return fd.clusterBarOp(in)
	}
	args := in.Args
	switch {
	case m.Has(isa.FlagRed):
		switch {
		case m.HasAtom(isa.AtomPopc):
			o.sub = barRedPopc
		case m.HasAtom(isa.AtomAnd):
			o.sub = barRedAnd
		case m.HasAtom(isa.AtomOr):
			o.sub = barRedOr
		default:
			return op{}, errors.New("bar.red needs .popc, .and or .or")
		}
		if len(args) < 3 {
			return op{}, errors.New("bar.red needs a destination, a barrier and a predicate")
		}
		r, m, err := fd.dstReg(args[0])
		if err != nil {
			return op{}, err
		}
		o.nd, o.dst[0], o.dmask[0] = 1, r, m
		c, err := fd.value(args[len(args)-1], ptx.Pred)
		if err != nil {
			return op{}, err
		}
		o.src[2] = c
		args = args[1 : len(args)-1]
	case m.Has(isa.FlagArrive):
		o.sub = barArrive
	default:
		o.sub = barSync
	}
	if len(args) < 1 || len(args) > 2 {
		return op{}, errors.New("barrier takes a barrier number and an optional thread count")
	}
	a, err := fd.value(args[0], ptx.U32)
	if err != nil {
		return op{}, err
	}
	o.src[0] = a
	o.src[1] = val{reg: -1, imm: 0} // 0 = all threads of the block
	if len(args) == 2 {
		b, err := fd.value(args[1], ptx.U32)
		if err != nil {
			return op{}, err
		}
		o.src[1] = b
		o.ns = 2
	} else {
		o.ns = 1
	}
	if o.sub == barArrive && o.ns != 2 {
		return op{}, errors.New("bar.arrive needs a thread count")
	}
	return o, nil
}

// shfl lowers shfl.sync.mode.b32 d[|p], a, b, c, membermask (and the deprecated form without .sync).
func (fd *fnDecoder) shfl(in *ptx.Inst) (op, error) {
	o := op{kind: kShfl}
	ok := true
	switch fd.cur.Mods.Shfl {
	case isa.ShflUp:
		o.sub = shflUp
	case isa.ShflDown:
		o.sub = shflDown
	case isa.ShflBfly:
		o.sub = shflBfly
	case isa.ShflIdx:
		o.sub = shflIdx
	default:
		ok = false
	}
	if !ok {
		return op{}, errors.New("shfl needs a mode")
	}
	n := len(in.Args)
	if n != 4 && n != 5 {
		return op{}, errors.New("shfl takes d, a, b, c and a member mask")
	}
	if err := fd.dstPair(in.Args[0], &o); err != nil {
		return op{}, err
	}
	for i := 1; i < n; i++ {
		v, err := fd.value(in.Args[i], ptx.B32)
		if err != nil {
			return op{}, err
		}
		o.src[i-1] = v
	}
	if n == 4 {
		o.src[3] = val{reg: -1, imm: 0xffffffff}
	}
	o.ns = 4
	return o, nil
}

// dstPair resolves d or d|p into dst[0], dst[1].
func (fd *fnDecoder) dstPair(a ptx.Operand, o *op) error {
	if a.Kind == ptx.OpPair {
		if len(a.Elems) != 2 {
			return errors.New("bad p|q destination")
		}
		for k := 0; k < 2; k++ {
			r, m, err := fd.dstReg(a.Elems[k])
			if err != nil {
				return err
			}
			o.dst[k], o.dmask[k] = r, m
		}
		o.nd = 2
		return nil
	}
	r, m, err := fd.dstReg(a)
	if err != nil {
		return err
	}
	o.dst[0], o.dmask[0], o.dst[1], o.nd = r, m, -1, 1
	return nil
}

// vote lowers vote{.sync}.mode.
func (fd *fnDecoder) vote(in *ptx.Inst) (op, error) {
	o := op{kind: kVote}
	ok := true
	switch fd.cur.Mods.Vote {
	case isa.VoteAll:
		o.sub = voteAll
	case isa.VoteAny:
		o.sub = voteAny
	case isa.VoteUni:
		o.sub = voteUni
	case isa.VoteBallot:
		o.sub = voteBallot
	default:
		ok = false
	}
	if !ok {
		return op{}, errors.New("vote needs a mode")
	}
	if len(in.Args) != 2 && len(in.Args) != 3 {
		return op{}, errors.New("vote takes d, a and a member mask")
	}
	r, m, err := fd.dstReg(in.Args[0])
	if err != nil {
		return op{}, err
	}
	o.nd, o.dst[0], o.dmask[0] = 1, r, m
	a, err := fd.value(in.Args[1], ptx.Pred)
	if err != nil {
		return op{}, err
	}
	o.src[0] = a
	o.src[1] = val{reg: -1, imm: 0xffffffff}
	if len(in.Args) == 3 {
		if o.src[1], err = fd.value(in.Args[2], ptx.B32); err != nil {
			return op{}, err
		}
	}
	o.ns = 2
	return o, nil
}

// match lowers match.any/all.sync.b32/b64.
func (fd *fnDecoder) match(in *ptx.Inst) (op, error) {
	o := op{kind: kMatch, size: 4}
	m := &fd.cur.Mods
	ok := true
	switch {
	case m.Vote == isa.VoteAny:
		o.sub = matchAny
	case m.Vote == isa.VoteAll:
		o.sub = matchAll
	default:
		ok = false
	}
	for _, t := range m.Types {
		if t == ptx.B64 {
			o.size = 8
		}
	}
	if !ok || len(in.Args) != 3 {
		return op{}, errors.New("match takes .any or .all, d, a and a member mask")
	}
	if err := fd.dstPair(in.Args[0], &o); err != nil {
		return op{}, err
	}
	for i := 1; i < 3; i++ {
		v, err := fd.value(in.Args[i], ptx.B64)
		if err != nil {
			return op{}, err
		}
		o.src[i-1] = v
	}
	o.ns = 2
	return o, nil
}

// redux lowers redux.sync.op.type d, a, membermask.
func (fd *fnDecoder) redux(in *ptx.Inst) (op, error) {
	o := op{kind: kRedux}
	md := &fd.cur.Mods
	for _, t := range md.Types {
		switch t {
		case ptx.S32:
			o.signed = true
		case ptx.F32:
			return op{}, errors.New("floating-point redux is not supported")
		}
	}
	if md.Flags&(isa.FlagAbs|isa.FlagNaN) != 0 {
		return op{}, errors.New("floating-point redux is not supported")
	}
	ok := true
	switch md.Atom {
	case isa.AtomAdd:
		o.sub = reduxAdd
	case isa.AtomMin:
		o.sub = reduxMin
	case isa.AtomMax:
		o.sub = reduxMax
	case isa.AtomAnd:
		o.sub = reduxAnd
	case isa.AtomOr:
		o.sub = reduxOr
	case isa.AtomXor:
		o.sub = reduxXor
	default:
		ok = false
	}
	if !ok || len(in.Args) != 3 {
		return op{}, errors.New("redux takes an operation, d, a and a member mask")
	}
	r, m, err := fd.dstReg(in.Args[0])
	if err != nil {
		return op{}, err
	}
	o.nd, o.dst[0], o.dmask[0] = 1, r, m
	for i := 1; i < 3; i++ {
		v, err := fd.value(in.Args[i], ptx.B32)
		if err != nil {
			return op{}, err
		}
		o.src[i-1] = v
	}
	o.ns = 2
	return o, nil
}

// elect lowers elect.sync d|p, membermask.
func (fd *fnDecoder) elect(in *ptx.Inst) (op, error) {
	if len(in.Args) != 2 {
		return op{}, errors.New("elect takes d|p and a member mask")
	}
	o := op{kind: kElect}
	if err := fd.dstPair(in.Args[0], &o); err != nil {
		return op{}, err
	}
	v, err := fd.value(in.Args[1], ptx.B32)
	if err != nil {
		return op{}, err
	}
	o.src[0], o.ns = v, 1
	return o, nil
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

// builtinCall lowers a call to an extern runtime function the simulator implements (vprintf, __assertfail).
func (fd *fnDecoder) builtinCall(name string, rets, args []ptx.Operand) (op, error) {
	b := builtinByName(name)
	var decl *ptx.Func
	for _, f := range fd.d.m.Funcs {
		if f.Name == name {
			decl = f
		}
	}
	if b == builtinNone || decl == nil || len(args) != len(decl.Params) || len(rets) > len(decl.Rets) {
		return op{}, fmt.Errorf("call to %s, which has no body in this module", name)
	}
	ci := &callInfo{builtin: b}
	if err := fd.callArgs(ci, args, rets, func(i int) int { return decl.Params[i].Size() }, func(i int) int { return decl.Rets[i].Size() }); err != nil {
		return op{}, err
	}
	return op{kind: kCall, call: ci}, nil
}

// indirectCall lowers call (rets), %reg, (args), proto: the callee is chosen
// per lane at run time; the prototype (or .calltargets list) gives the layout.
func (fd *fnDecoder) indirectCall(in *ptx.Inst, target *ptx.Operand, rets, args []ptx.Operand) (op, error) {
	last := in.Args[len(in.Args)-1]
	var sig *ptx.Func
	for _, p := range fd.fn.f.Protos {
		if p.Name == last.Name {
			sig = p
		}
	}
	if sig == nil {
		for _, t := range fd.fn.f.Targets {
			if t.Name == last.Name && t.Call && len(t.Labels) > 0 {
				if c, ok := fd.d.fnByName[t.Labels[0]]; ok {
					sig = c.f
				}
			}
		}
	}
	if sig == nil {
		return op{}, fmt.Errorf("indirect call without a known .callprototype or .calltargets list (%s)", last.Name)
	}
	if len(args) != len(sig.Params) || len(rets) != len(sig.Rets) {
		return op{}, fmt.Errorf("indirect call with %d arguments and %d returns; the prototype has %d and %d",
			len(args), len(rets), len(sig.Params), len(sig.Rets))
	}
	v, err := fd.value(*target, ptx.U64)
	if err != nil {
		return op{}, err
	}
	ci := &callInfo{indirect: true, fnptr: v}
	if err := fd.callArgs(ci, args, rets, func(i int) int { return sig.Params[i].Size() }, func(i int) int { return sig.Rets[i].Size() }); err != nil {
		return op{}, err
	}
	return op{kind: kCall, call: ci}, nil
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
