package sim

// Lowering of control flow and barriers: bra, brx.idx, call (direct, builtin
// and indirect), bar and barrier.

import (
	"errors"
	"fmt"

	"github.com/kernelscope/kernelscope/gpu/isa"
	"github.com/kernelscope/kernelscope/gpu/ptx"
)

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
