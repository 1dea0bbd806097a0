// Package isa is KernelScope's one decoded form of a PTX program: each
// function is lowered once into value-typed instructions (an opcode enum,
// parsed modifiers, register ids, memory space and width, latency class)
// that the functional simulator, the timing model, the memory model and the
// sanitizer read instead of re-parsing ptx.Inst text.
//
// PCs: the kernel's instructions first, then each device function with a
// body, each function followed by one implicit end-of-body return (the
// numbering gpu/sim executes and reports in sim.Issue.PC).
package isa

import (
	"errors"
	"fmt"

	"github.com/kernelscope/kernelscope/gpu/latency"
	"github.com/kernelscope/kernelscope/gpu/mem"
	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// Mods are an instruction's parsed modifiers.
type Mods struct {
	Space ptx.Space   // the state space named (the last one, as for cp.async.ca.shared.global); SpaceNone: generic or none
	Cache mem.CacheOp // cache operator (.ca .cg .cs .lu .cv .wb .wt) or .nc; Default when none
	Vec   uint8       // vector width: 1, or 2, 4, 8 for .v2 .v4 .v8
	Type  ptx.Type    // the last type modifier (the instruction type); ptx.TypeNone when none
	Types []ptx.Type  // every type modifier, in source order (cvt.f32.s32: F32, S32)
	Words []string    // every other modifier, in source order, the space, cache and vector ones included ("global", "add")

	Flags Flag     // the modifier words present that have a flag (mods.go)
	Cmp   Cmp      // comparison (setp.lt): the last one
	Rnd   Rnd      // rounding modifier: the last one
	Atom  AtomOp   // operation word (atom.add, bar.red.popc, redux.xor): the last one
	Atoms uint16   // every operation word present, bit 1<<AtomOp
	Shfl  ShflMode // shuffle mode: the last one
	Vote  VoteMode // vote/match mode: the last one
	Sem   Sem      // memory-ordering semantics: the last one
	Scope Scope    // scope (cta, cluster, gpu/gl, sys): the last one
	Shape Shape    // matrix shape (mma.m16n8k16, wgmma.m64n128k16): the last one
}

// Shape is a matrix-instruction shape mMnNkK; zero when none is given.
type Shape struct{ M, N, K uint16 }

// Inst is one decoded instruction.
type Inst struct {
	Op       Opcode        // base opcode; OpInvalid for the implicit end-of-body return
	Mods     Mods          // parsed modifiers
	Class    latency.Class // timing class (latency.ClassOf of the parsed modifiers)
	Dst      []int32       // register ids written
	Src      []int32       // register ids read (guard predicate included)
	Guard    int32         // guard predicate register id, -1 when unguarded
	GuardNeg bool          // @!%p
	NoWait   bool          // bar.arrive / barrier.arrive: counts nothing and does not wait
	Implicit bool          // the implicit return (exit in a kernel) after a function's last instruction
	Func     int32         // index into Program.Funcs
	Index    int32         // index in the function's ptx.Func.Insts (len(Insts) for the implicit return)
	Line     int           // PTX line
	Loc      ptx.Loc       // CUDA location from .loc
	Text     string        // opcode with modifiers ("ld.global.f32")
	PTX      *ptx.Inst     // the parsed instruction (nil for the implicit return), for operand forms not decoded here
}

// Width is the bytes a memory instruction moves per lane: element size times vector width.
func (in *Inst) Width() int { return in.Mods.Type.Size() * int(max(in.Mods.Vec, 1)) }

// Func is one function of a program.
type Func struct {
	F    *ptx.Func
	Base int32 // PC of its first instruction
	N    int32 // its instructions, the implicit return included
}

// Program is a decoded kernel and the device functions it may call.
type Program struct {
	Insts    []Inst
	Funcs    []Func
	RegNames []string // register id -> name ("%r5", "%v1.x"; "name:%r5" in device functions)
}

// ParseMods parses modifiers: the last space, cache operator, vector width,
// type and word of each enum group win, Flags and Atoms collect every word
// present; Types and Words keep every modifier in order (Words: all but the
// types), as gpu/arith reads them.
func ParseMods(mods []string) Mods {
	m := Mods{Vec: 1}
	for _, s := range mods {
		if t, ok := ptx.TypeByName(s); ok {
			m.Type = t
			m.Types = append(m.Types, t)
			continue
		}
		m.Words = append(m.Words, s)
		m.word(s)
		if sh, ok := parseShape(s); ok {
			m.Shape = sh
		}
		switch s {
		case "global":
			m.Space = ptx.SpaceGlobal
		case "shared", "shared::cta":
			m.Space = ptx.SpaceShared
		case "shared::cluster":
			m.Space = ptx.SpaceSharedCluster
		case "local":
			m.Space = ptx.SpaceLocal
		case "const":
			m.Space = ptx.SpaceConst
		case "param", "param::entry", "param::func":
			m.Space = ptx.SpaceParam
		case "ca":
			m.Cache = mem.CA
		case "cg":
			m.Cache = mem.CG
		case "cs":
			m.Cache = mem.CS
		case "lu":
			m.Cache = mem.LU
		case "cv":
			m.Cache = mem.CV
		case "wb":
			m.Cache = mem.WB
		case "wt":
			m.Cache = mem.WT
		case "nc":
			m.Cache = mem.NC
		case "v2":
			m.Vec = 2
		case "v4":
			m.Vec = 4
		case "v8":
			m.Vec = 8
		}
	}
	return m
}

// Decode lowers funcs (the kernel first, then device functions) into one
// program. Register names are kept apart per function.
func Decode(funcs ...*ptx.Func) (*Program, error) {
	if len(funcs) == 0 {
		return nil, errors.New("isa: no function")
	}
	p := &Program{}
	ids := map[string]int32{}
	n := 0
	for _, f := range funcs {
		if f != nil {
			n += len(f.Insts) + 1
		}
	}
	p.Insts = make([]Inst, 0, n)
	for fi, f := range funcs {
		if f == nil {
			return nil, fmt.Errorf("isa: function %d is nil", fi)
		}
		prefix := ""
		if fi > 0 {
			prefix = f.Name + ":"
		}
		id := func(name, comp string) int32 {
			k := prefix + name
			if comp != "" {
				k += "." + comp
			}
			if v, ok := ids[k]; ok {
				return v
			}
			v := int32(len(p.RegNames))
			ids[k] = v
			p.RegNames = append(p.RegNames, k)
			return v
		}
		var collect func(o ptx.Operand, out *[]int32)
		collect = func(o ptx.Operand, out *[]int32) {
			switch o.Kind {
			case ptx.OpReg:
				*out = append(*out, id(o.Name, o.Comp))
			case ptx.OpAddr:
				if o.BaseReg && o.Name != "" {
					*out = append(*out, id(o.Name, ""))
				}
			case ptx.OpVec, ptx.OpList, ptx.OpPair:
				for _, e := range o.Elems {
					collect(e, out)
				}
			}
		}
		p.Funcs = append(p.Funcs, Func{F: f, Base: int32(len(p.Insts)), N: int32(len(f.Insts) + 1)})
		for i, in := range f.Insts {
			p.Insts = append(p.Insts, Inst{Func: int32(fi), Index: int32(i), Guard: -1})
			pi := &p.Insts[len(p.Insts)-1]
			if in == nil {
				pi.Class = latency.ClassOther
				continue
			}
			pi.PTX = in
			pi.Op = Lookup(in.Op)
			pi.Mods = ParseMods(in.Mods)
			pi.Class = classOf(in, &pi.Mods)
			pi.Line = int(in.Pos.Line)
			pi.Loc = in.Loc
			pi.Text = Text(in)
			if pi.Class == latency.ClassBar && len(in.Mods) > 0 && in.Mods[0] == "arrive" {
				pi.NoWait = true
			}
			args := in.Args
			if in.Defs() && len(args) > 0 {
				if args[0].Kind == ptx.OpAddr { // never a destination
					collect(args[0], &pi.Src)
				} else {
					collect(args[0], &pi.Dst)
				}
				args = args[1:]
			}
			for _, a := range args {
				collect(a, &pi.Src)
			}
			if in.Guard != "" {
				g := id(in.Guard, "")
				pi.Guard, pi.GuardNeg = g, in.GuardNeg
				pi.Src = append(pi.Src, g)
			}
		}
		p.Insts = append(p.Insts, Inst{Op: OpRet, Class: latency.ClassOther, Guard: -1, Implicit: true, Func: int32(fi),
			Index: int32(len(f.Insts)), Line: int(f.EndPos.Line), Text: "ret (end of body)", Mods: Mods{Vec: 1}})
		if f.Entry {
			p.Insts[len(p.Insts)-1].Op = OpExit
		}
	}
	return p, nil
}

// Text is an instruction's opcode with its modifiers ("ld.global.f32").
func Text(in *ptx.Inst) string {
	s := in.Op
	for _, m := range in.Mods {
		s += "." + m
	}
	return s
}

// classOf is an instruction's timing class, from its parsed modifiers
// (latency.ClassOf's rules; the space of an instruction that names two is
// the last here, the first in latency.FormOf: no class depends on it then).
func classOf(in *ptx.Inst, m *Mods) latency.Class {
	f := latency.Form{Op: in.Op, Type: m.Type, Types: m.Types, Space: m.Space,
		Approx: m.Has(FlagApprox), Ftz: m.Has(FlagFtz), Full: m.Has(FlagFull), Warp: m.Has(FlagWarp), CTA: m.Has(FlagCTA)}
	if f.Space == ptx.SpaceSharedCluster {
		f.Space = ptx.SpaceShared
	}
	if len(in.Mods) > 0 {
		f.First = in.Mods[0]
	}
	if in.Op == "mov" && len(in.Args) >= 2 && in.Args[1].Kind == ptx.OpSpecial {
		f.SReg = in.Args[1].Name
	}
	return latency.ClassOf(&f)
}
