package arith

import (
	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// ptxas contraction (measured on an H200 with CUDA 13.0's ptxas,
// testdata/ptxas_contract): the PTX ISA lets the code generator fuse a mul and
// an add or sub that carry no rounding modifier ("mul/add with no rounding
// modifier may be optimized aggressively"), and ptxas -O3 does so for f32,
// f64, f16, f16x2, bf16 and bf16x2 when
//   - the mul and the add/sub have the same type and .ftz and no rounding
//     modifier; the mul has no guard and no .sat (the add's .sat stays:
//     FFMA.SAT; a guarded add is fused, keeping its guard);
//   - they are in the same basic block;
//   - every use of the mul's result is such an add/sub with the product as one
//     operand only (t+t is not fused), directly or through movs; then every one
//     of them becomes an fma and the product is not rounded at all; a product
//     also stored, converted or used in another block is not fused anywhere;
//   - a product whose only use is a neg (f32 with or without .ftz; f16/f16x2
//     without .ftz; f64, bf16; not bf16x2) is fused with the negation;
//   - an add/sub of two fusable products fuses its first operand
//     (a*b + c*d -> fma(a, b, c*d)).
// Measured in two runs: the first (testdata/ptxas_contract/h200) gave the rule
// without the movs, the guarded add and the neg .ftz details, which the second
// (v2/h200, new cases and inputs) showed; the rest held on the second run.
// Contractions finds them; DecodeFused gives the fma to run in the add's place.

// Fusion is one add or sub that ptxas contracts with the mul feeding it.
type Fusion struct {
	Mul  int       // index of the mul in the function's instructions
	Inst *ptx.Inst // fma.rn{.ftz}{.sat}.T d, a, b, c in the add's place
	NegA bool      // c - a*b: the product negated
	NegC bool      // a*b - c: c negated
}

// contractable reports the float type and .ftz/.sat of an unrounded
// mul/add/sub ("" when it is not one).
func contractable(in *ptx.Inst) (t string, ftz, sat, ok bool) {
	if len(in.Args) != 3 {
		return "", false, false, false
	}
	for _, m := range in.Mods {
		switch m {
		case "f32", "f64", "f16", "f16x2", "bf16", "bf16x2":
			if t != "" {
				return "", false, false, false
			}
			t = m
		case "ftz":
			ftz = true
		case "sat":
			sat = true
		default: // a rounding modifier, or anything else: not contracted
			return "", false, false, false
		}
	}
	return t, ftz, sat, t != ""
}

// regUse is where a register is read.
type regUse struct {
	inst int
	arg  int // operand index; -1 for a guard, an address or a vector element
}

// Contractions returns, by the index of the add/sub, the fusions ptxas makes
// in f (blockOf maps an instruction to its basic block: ptx.CFG.BlockOf).
func Contractions(f *ptx.Func, blockOf []int) map[int]Fusion {
	if f == nil || len(blockOf) < len(f.Insts) {
		return nil
	}
	// Candidate products first: most functions have none.
	any := false
	for _, in := range f.Insts {
		if in.Op == "mul" {
			if _, _, sat, ok := contractable(in); ok && !sat {
				any = true
				break
			}
		}
	}
	if !any {
		return nil
	}
	defs := map[string][]int{}
	uses := map[string][]regUse{}
	var addUses func(i, arg int, o *ptx.Operand)
	addUses = func(i, arg int, o *ptx.Operand) {
		switch o.Kind {
		case ptx.OpReg:
			uses[o.Name] = append(uses[o.Name], regUse{i, arg})
		case ptx.OpAddr:
			if o.BaseReg {
				uses[o.Name] = append(uses[o.Name], regUse{i, -1})
			}
			for k := range o.Elems {
				addUses(i, -1, &o.Elems[k])
			}
		case ptx.OpVec, ptx.OpList, ptx.OpPair:
			for k := range o.Elems {
				addUses(i, -1, &o.Elems[k])
			}
		}
	}
	var addDefs func(i int, o *ptx.Operand)
	addDefs = func(i int, o *ptx.Operand) {
		switch o.Kind {
		case ptx.OpReg:
			defs[o.Name] = append(defs[o.Name], i)
		case ptx.OpVec, ptx.OpList, ptx.OpPair:
			for k := range o.Elems {
				addDefs(i, &o.Elems[k])
			}
		}
	}
	for i, in := range f.Insts {
		if in.Guard != "" {
			uses[in.Guard] = append(uses[in.Guard], regUse{i, -1})
		}
		for a := range in.Args {
			if a == 0 && in.Defs() {
				addDefs(i, &in.Args[0])
				continue
			}
			addUses(i, a, &in.Args[a])
		}
	}
	// redefined reports whether register operand o is written in (from, to).
	redefined := func(o ptx.Operand, from, to int) bool {
		if o.Kind != ptx.OpReg {
			return false
		}
		for _, d := range defs[o.Name] {
			if d > from && d < to {
				return true
			}
		}
		return false
	}
	// fusableUses: the uses of reg (a product of the mul at index i), when all
	// are adds/subs that ptxas fuses with it; else nil.
	var fusableUses func(reg string, i int, t string, ftz bool) []regUse
	fusableUses = func(reg string, i int, t string, ftz bool) []regUse {
		mul := f.Insts[i]
		if len(defs[reg]) != 1 {
			return nil
		}
		us := uses[reg]
		if len(us) == 0 {
			return nil
		}
		var out []regUse
		for _, u := range us {
			add := f.Insts[u.inst]
			if u.inst <= i || blockOf[u.inst] != blockOf[i] || u.arg < 1 {
				return nil
			}
			if add.Op == "mov" && add.Guard == "" && len(add.Args) == 2 && add.Args[0].Kind == ptx.OpReg {
				// A copy: ptxas fuses through it (its uses are the product's).
				more := fusableUses(add.Args[0].Name, i, t, ftz)
				if more == nil {
					return nil
				}
				out = append(out, more...)
				continue
			}
			ut, uftz, _, ok := contractable(add)
			if !ok || (add.Op != "add" && add.Op != "sub") || ut != t || uftz != ftz {
				return nil
			}
			if redefined(mul.Args[1], i, u.inst) || redefined(mul.Args[2], i, u.inst) {
				return nil
			}
			out = append(out, u)
		}
		for k := 1; k < len(out); k++ {
			for j := 0; j < k; j++ {
				if out[j].inst == out[k].inst { // t + t
					return nil
				}
			}
		}
		return out
	}
	type fused struct {
		Fusion
		arg int // the product's operand index in the add
	}
	out := map[int]fused{}
	for i, mul := range f.Insts {
		t, ftz, sat, ok := contractable(mul)
		if mul.Op != "mul" || !ok || sat || mul.Guard != "" || mul.Args[0].Kind != ptx.OpReg {
			continue
		}
		d := mul.Args[0].Name
		neg := false
		us := fusableUses(d, i, t, ftz)
		if us == nil && len(defs[d]) == 1 && len(uses[d]) == 1 && t != "bf16x2" {
			// A product whose only use is a neg of the same type: the negation
			// folds into the fma (not for bf16x2, measured).
			u := uses[d][0]
			n := f.Insts[u.inst]
			nt, nftz, nsat, ok := contractable(&ptx.Inst{Mods: n.Mods, Args: []ptx.Operand{{}, {}, {}}})
			// neg's .ftz does not matter for f32; on f16 and f16x2 neg.ftz is not folded (measured).
			if n.Op == "neg" && ok && n.Guard == "" && !nsat && nt == t && (!nftz || t == "f32") && u.arg == 1 && len(n.Args) == 2 &&
				n.Args[0].Kind == ptx.OpReg && blockOf[u.inst] == blockOf[i] {
				us, neg = fusableUses(n.Args[0].Name, i, t, ftz), true
			}
		}
		for _, u := range us {
			if prev, taken := out[u.inst]; taken && prev.arg == 1 {
				continue // both operands are products: ptxas fuses the first
			}
			add := f.Insts[u.inst]
			fu := fused{Fusion: Fusion{Mul: i, NegA: neg}, arg: u.arg}
			if add.Op == "sub" {
				if u.arg == 1 {
					fu.NegC = true // p - c
				} else {
					fu.NegA = !neg // c - p
				}
			}
			mods := []string{"rn"}
			for _, m := range add.Mods {
				if m == "ftz" || m == "sat" {
					mods = append(mods, m)
				}
			}
			mods = append(mods, t)
			fu.Inst = &ptx.Inst{Pos: add.Pos, Op: "fma", Mods: mods, Loc: add.Loc,
				Args: []ptx.Operand{add.Args[0], mul.Args[1], mul.Args[2], add.Args[3-u.arg]}}
			out[u.inst] = fu
		}
	}
	if len(out) == 0 {
		return nil
	}
	res := make(map[int]Fusion, len(out))
	for k, v := range out {
		res[k] = v.Fusion
	}
	return res
}

// DecodeFused decodes the fma of a fusion, with its negations.
func DecodeFused(fu Fusion) (*Op, error) {
	o, err := Decode(fu.Inst)
	if err != nil {
		return nil, err
	}
	if !fu.NegA && !fu.NegC {
		return o, nil
	}
	var sign uint64
	switch o.t {
	case ptx.F32:
		sign = 1 << 31
	case ptx.F64:
		sign = 1 << 63
	case ptx.F16, ptx.BF16:
		sign = 1 << 15
	case ptx.F16x2, ptx.BF16x2:
		sign = 1<<31 | 1<<15
	}
	if fu.NegA {
		o.negSrc[0] = sign
	}
	if fu.NegC {
		o.negSrc[2] = sign
	}
	o.hasNeg, o.fast = true, fastNone
	return o, nil
}

// negated returns the sources with negSrc's sign bits flipped. An f64 NaN keeps
// its sign: the H200's DFMA propagates a negated NaN operand unchanged (quieted).
func (o *Op) negated(src *[4]uint64) [4]uint64 {
	s := *src
	for i, m := range o.negSrc {
		if m == 0 {
			continue
		}
		if o.t == ptx.F64 && s[i]&^m > 0x7ff0000000000000 {
			continue
		}
		s[i] ^= m
	}
	return s
}
