package sim

// Lowering: each PTX instruction of a function becomes one op with its
// registers, immediates, addresses and branch targets resolved. Here: the
// per-function driver, the dispatch on isa.Opcode (the table is lowering.go),
// operand and address resolution, and the lane-local (gpu/arith) and mov
// lowerings; memory instructions are in lower_mem.go, control flow and
// barriers in lower_ctl.go, warp-level instructions in lower_warp.go, the
// tensor and cluster ones in mma.go, wmma.go, wgmma.go, bulk.go, tma.go and
// cluster.go. The memory layout the lowering reads (symbols, frames,
// parameters) is in layout.go.

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
