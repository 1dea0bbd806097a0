package latency

import (
	"fmt"
	"strings"

	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// Class is a PTX instruction class: instructions of one class share timing.
type Class uint8

// The instruction classes.
const (
	ClassOther       Class = iota // anything not listed: integer-ALU timing
	ClassMov                      // mov/cvta-free register moves
	ClassIAdd                     // add, sub, addc, subc, abs, neg on 8..32-bit integers
	ClassIAdd64                   // the same on 64-bit integers, cvta
	ClassIMinMax                  // min, max on integers
	ClassLogic                    // and, or, xor, not, cnot, lop3
	ClassShift                    // shl, shr, shf, bfe, bfi, prmt
	ClassIMul                     // mul, mad, mul24, mad24, sad, dp4a, dp2a on 32-bit integers
	ClassIMul64                   // mul, mad on 64-bit integers
	ClassIDiv                     // div, rem on 32-bit integers (subroutine)
	ClassIDiv64                   // div, rem on 64-bit integers (subroutine)
	ClassBitCount                 // popc, brev, bfind, fns
	ClassClz                      // clz (FLO + IADD3)
	ClassSetp                     // setp, set, testp
	ClassSelp                     // selp, slct, copysign
	ClassFAdd                     // add, sub, mul, fma, mad, abs, neg on f32
	ClassFMinMax                  // min, max on f32
	ClassF16                      // f16, bf16, f16x2, bf16x2 arithmetic
	ClassFAdd64                   // add, sub, mul, fma, mad, abs, neg, min, max on f64
	ClassDivFull                  // div.full.f32 and div.approx.f32
	ClassDivRN                    // div.rn/rz/rm/rp.f32 (subroutine)
	ClassSqrtRN                   // sqrt.rn.f32, rcp.rn.f32 (subroutine)
	ClassDivRN64                  // div, rcp, sqrt on f64 (subroutine)
	ClassMufu                     // ex2, tanh, and .ftz rcp/rsqrt/sqrt/lg2 .approx: one MUFU
	ClassRcpApprox                // rcp.approx.f32 without .ftz (denormal scaling around MUFU.RCP)
	ClassRsqrtApprox              // rsqrt/sqrt/lg2.approx.f32 without .ftz (scaling around MUFU)
	ClassSinCos                   // sin, cos .approx (FMUL.RZ + MUFU)
	ClassCvt                      // cvt between integer and float, or between float widths (I2F/F2I/F2F)
	ClassCvtInt                   // cvt between integer widths, cvt with f16 (ALU)
	ClassSReg                     // mov from %tid, %ntid, %ctaid, %laneid ... (S2R)
	ClassClock                    // mov from %clock, %clock64, %globaltimer (CS2R)
	ClassLdParam                  // ld.param, ld.const, ldu (constant cache)
	ClassLdShared                 // ld.shared
	ClassStShared                 // st.shared
	ClassLdGlobal                 // ld.global, ld.local, ld (generic): latency by outcome
	ClassStGlobal                 // st.global, st.local, st (generic)
	ClassAtomShared               // atom/red on shared memory
	ClassAtomGlobal               // atom/red on global memory
	ClassShfl                     // shfl
	ClassVote                     // vote, activemask, elect
	ClassRedux                    // redux, match
	ClassBra                      // bra, brx
	ClassCall                     // call, ret
	ClassExit                     // exit, trap
	ClassBar                      // bar.sync, bar.arrive, barrier
	ClassMembarCTA                // membar.cta, fence.cta
	ClassMembarGL                 // membar.gl/sys, fence.sc/acq_rel (gpu or sys scope)
	ClassNop                      // prefetch, nanosleep, pmevent and other no-result instructions
	ClassTensor                   // mma, wmma, wgmma
	NumClasses                    // number of classes
)

var classNames = [NumClasses]string{
	"other", "mov", "iadd", "iadd64", "iminmax", "logic", "shift", "imul", "imul64", "idiv", "idiv64",
	"bitcount", "clz", "setp", "selp", "fadd", "fminmax", "f16", "fadd64", "div.full", "div.rn",
	"sqrt.rn", "div.rn64", "mufu", "rcp.approx", "rsqrt.approx", "sincos", "cvt", "cvt.int", "sreg",
	"clock", "ld.param", "ld.shared", "st.shared", "ld.global", "st.global", "atom.shared",
	"atom.global", "shfl", "vote", "redux", "bra", "call", "exit", "bar", "membar.cta", "membar.gl",
	"nop", "tensor",
}

// String names the class.
func (c Class) String() string {
	if c < NumClasses {
		return classNames[c]
	}
	return fmt.Sprintf("Class(%d)", c)
}

// Form is what an instruction's class depends on, decoded: gpu/isa fills it
// from the modifiers it parsed once (isa.Decode), FormOf from a ptx.Inst.
type Form struct {
	Op    string     // base opcode ("ld")
	First string     // the first modifier ("mma" of wmma.mma.sync...), "" when none
	Type  ptx.Type   // the last type modifier, TypeNone when none
	Types []ptx.Type // every type modifier, in source order
	Space ptx.Space  // the state space named (shared::cta, shared::cluster: SpaceShared; param::*: SpaceParam); SpaceNone: generic
	// Approx, Ftz, Full, Warp and CTA say whether .approx, .ftz, .full, .warp, .cta are among the modifiers.
	Approx, Ftz, Full, Warp, CTA bool
	SReg                         string // mov from a special register: its name ("%clock64"); "" otherwise
}

// FormOf decodes an instruction's Form from its opcode, modifiers and (for
// mov) source operand; the space is the first one named.
func FormOf(in *ptx.Inst) Form {
	f := Form{Op: in.Op}
	if len(in.Mods) > 0 {
		f.First = in.Mods[0]
	}
	for _, m := range in.Mods {
		if t, ok := ptx.TypeByName(m); ok {
			f.Type = t
			f.Types = append(f.Types, t)
			continue
		}
		switch {
		case m == "approx":
			f.Approx = true
		case m == "ftz":
			f.Ftz = true
		case m == "full":
			f.Full = true
		case m == "warp":
			f.Warp = true
		case m == "cta":
			f.CTA = true
		}
		if f.Space == ptx.SpaceNone {
			f.Space = spaceWord(m)
		}
	}
	if in.Op == "mov" && len(in.Args) >= 2 && in.Args[1].Kind == ptx.OpSpecial {
		f.SReg = in.Args[1].Name
	}
	return f
}

// spaceWord is the state space a modifier names, SpaceNone if none.
func spaceWord(m string) ptx.Space {
	switch {
	case m == "global":
		return ptx.SpaceGlobal
	case m == "local":
		return ptx.SpaceLocal
	case m == "shared" || strings.HasPrefix(m, "shared::"):
		return ptx.SpaceShared
	case m == "param" || strings.HasPrefix(m, "param::"):
		return ptx.SpaceParam
	case m == "const":
		return ptx.SpaceConst
	}
	return ptx.SpaceNone
}

func isFloat(t ptx.Type) bool {
	switch t {
	case ptx.F16, ptx.F16x2, ptx.BF16, ptx.BF16x2, ptx.TF32, ptx.F32, ptx.F64:
		return true
	}
	return false
}

func isHalf(t ptx.Type) bool {
	switch t {
	case ptx.F16, ptx.F16x2, ptx.BF16, ptx.BF16x2:
		return true
	}
	return false
}

// Classify decodes the class of a PTX instruction from its opcode and
// modifiers (and, for mov, its source operand). It never panics.
func Classify(in *ptx.Inst) Class {
	if in == nil {
		return ClassOther
	}
	f := FormOf(in)
	return ClassOf(&f)
}

// ClassOf is the class of a decoded instruction (Classify's rules).
func ClassOf(f *Form) Class {
	if c := classifyForm(f); c != classUnknown {
		return c
	}
	return ClassOther
}

// Classifies reports whether the rules name the opcode op ("ld"): false
// means every instruction of it gets ClassOther by default.
func Classifies(op string) bool {
	return classifyForm(&Form{Op: op}) != classUnknown
}

// classUnknown is classifyForm's answer for an opcode it has no rule for.
const classUnknown = NumClasses

// classifyForm is the rules, by opcode.
func classifyForm(in *Form) Class {
	t := in.Type
	switch in.Op {
	case "mov":
		if in.SReg != "" {
			switch in.SReg {
			case "%clock", "%clock64", "%globaltimer", "%globaltimer_lo", "%globaltimer_hi":
				return ClassClock
			}
			return ClassSReg
		}
		return ClassMov
	case "cvta":
		return ClassMov // cvta.to.global of a parameter is a move (or nothing) in SASS
	case "isspacep":
		return ClassIAdd64
	case "add", "sub", "mul", "mad", "fma", "abs", "neg", "addc", "subc", "madc":
		switch {
		case t == ptx.F64:
			return ClassFAdd64
		case isHalf(t):
			return ClassF16
		case isFloat(t):
			return ClassFAdd
		}
		wide := t.Size() == 8
		if in.Op == "mul" || in.Op == "mad" || in.Op == "madc" {
			if wide {
				return ClassIMul64
			}
			return ClassIMul
		}
		if wide {
			return ClassIAdd64
		}
		return ClassIAdd
	case "mul24", "mad24", "sad", "dp4a", "dp2a":
		return ClassIMul
	case "min", "max":
		switch {
		case t == ptx.F64:
			return ClassFAdd64
		case isHalf(t):
			return ClassF16
		case isFloat(t):
			return ClassFMinMax
		}
		return ClassIMinMax
	case "and", "or", "xor", "not", "cnot", "lop3":
		return ClassLogic
	case "shl", "shr", "shf", "bfe", "bfi", "prmt", "bmsk", "szext":
		return ClassShift
	case "div", "rem":
		switch {
		case t == ptx.F64:
			return ClassDivRN64
		case isFloat(t):
			if in.Full || in.Approx {
				return ClassDivFull
			}
			return ClassDivRN
		case t.Size() == 8:
			return ClassIDiv64
		}
		return ClassIDiv
	case "rcp", "sqrt", "rsqrt", "lg2":
		if t == ptx.F64 {
			if in.Op == "rsqrt" || in.Approx {
				return ClassMufu // rcp.approx.ftz.f64, rsqrt.approx.f64: MUFU.RCP64H / RSQ64H
			}
			return ClassDivRN64
		}
		if !in.Approx {
			return ClassSqrtRN
		}
		if in.Ftz {
			return ClassMufu
		}
		if in.Op == "rcp" {
			return ClassRcpApprox
		}
		return ClassRsqrtApprox
	case "ex2", "tanh":
		return ClassMufu
	case "sin", "cos":
		return ClassSinCos
	case "popc", "brev", "bfind", "fns":
		return ClassBitCount
	case "clz":
		return ClassClz
	case "setp", "set", "testp":
		if t == ptx.F64 {
			return ClassFAdd64
		}
		return ClassSetp
	case "selp", "slct", "copysign":
		return ClassSelp
	case "cvt", "cvt.pack":
		ts := in.Types
		if len(ts) >= 2 {
			d, s := ts[0], ts[len(ts)-1]
			if (isFloat(d) && !isHalf(d)) || (isFloat(s) && !isHalf(s)) {
				if d == s && !isHalf(d) {
					return ClassFAdd // cvt.rni.f32.f32 and friends: FRND
				}
				return ClassCvt
			}
		}
		return ClassCvtInt
	case "ld", "ldu":
		switch in.Space {
		case ptx.SpaceParam, ptx.SpaceConst:
			return ClassLdParam
		case ptx.SpaceShared:
			return ClassLdShared
		}
		if in.Op == "ldu" {
			return ClassLdParam
		}
		return ClassLdGlobal
	case "st":
		switch in.Space {
		case ptx.SpaceShared:
			return ClassStShared
		case ptx.SpaceParam:
			return ClassMov
		}
		return ClassStGlobal
	case "atom", "red":
		if in.Space == ptx.SpaceShared {
			return ClassAtomShared
		}
		return ClassAtomGlobal
	case "shfl":
		return ClassShfl
	case "vote", "activemask", "elect":
		return ClassVote
	case "redux", "match":
		return ClassRedux
	case "bra", "brx":
		return ClassBra
	case "call", "ret":
		return ClassCall
	case "exit", "trap", "brkpt":
		return ClassExit
	case "bar", "barrier":
		if in.Warp {
			return ClassNop // bar.warp.sync: a warp-level convergence point
		}
		return ClassBar
	case "membar", "fence":
		if in.CTA {
			return ClassMembarCTA
		}
		return ClassMembarGL
	case "prefetch", "prefetchu", "nanosleep", "pmevent", "griddepcontrol", "createpolicy", "discard", "applypriority":
		return ClassNop
	case "mma", "wmma", "wgmma":
		if in.Op == "wmma" && in.First != "" && in.First != "mma" { // wmma.load / wmma.store
			return tensorMem(in)
		}
		if in.Op == "wgmma" && in.First != "" && in.First != "mma_async" {
			return ClassNop // wgmma.fence / commit_group / wait_group: the simulator completes a wgmma when issued (modelled)
		}
		return ClassTensor
	case "ldmatrix", "stmatrix":
		return tensorMem(in)
	case "movmatrix":
		return ClassShfl // MOVM moves elements between lanes like a shuffle (modelled)
	case "mbarrier":
		return ClassAtomShared // SYNCS on the mbarrier word in shared memory (modelled)
	case "cp", "mapa", "getctarank", "setmaxnreg",
		"vabsdiff", "vabsdiff2", "vabsdiff4", "vadd", "vadd2", "vadd4", "vavrg2", "vavrg4", "vmad",
		"vmax", "vmax2", "vmax4", "vmin", "vmin2", "vmin4", "vset", "vset2", "vset4", "vshl", "vshr",
		"vsub", "vsub2", "vsub4":
		return ClassOther // integer-ALU timing (cp.async and the bulk copies: the copy is timed by its accesses)
	}
	return classUnknown
}

// tensorMem classifies ldmatrix, stmatrix and wmma.load/store by direction and space
// (LDSM/STSM are shared-memory instructions; a generic wmma address counts as global).
func tensorMem(in *Form) Class {
	st := in.Op == "stmatrix" || in.First == "store"
	shared := in.Op != "wmma" || in.Space == ptx.SpaceShared
	switch {
	case st && shared:
		return ClassStShared
	case st:
		return ClassStGlobal
	case shared:
		return ClassLdShared
	}
	return ClassLdGlobal
}
