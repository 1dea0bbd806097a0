package arith

import (
	"fmt"

	"github.com/kernelscope/kernelscope/gpu/ptx"
)

func decMov(o *Op, m *mods, in *ptx.Inst) error {
	t, err := m.oneType()
	if err != nil {
		return err
	}
	if len(in.Args) != 2 {
		return fmt.Errorf("mov: expected 2 operands, found %d", len(in.Args))
	}
	switch in.Args[0].Kind {
	case ptx.OpReg, ptx.OpSink:
	default:
		return fmt.Errorf("mov with a %v destination: %w", in.Args[0].Kind, ErrNotArith)
	}
	switch in.Args[1].Kind {
	case ptx.OpReg, ptx.OpImm, ptx.OpFloat:
	default:
		return fmt.Errorf("mov of a symbol, special register or vector: %w", ErrNotArith)
	}
	o.kind, o.t = kMov, t
	return o.setSrcs(in, 1, t)
}

func floatKind(op string) kind {
	switch op {
	case "add":
		return kFAdd
	case "sub":
		return kFSub
	case "mul":
		return kFMul
	case "fma", "mad":
		return kFFma
	case "div":
		return kFDiv
	case "rcp":
		return kFRcp
	case "sqrt":
		return kFSqrt
	case "rsqrt":
		return kFRsqrt
	case "sin":
		return kFSin
	case "cos":
		return kFCos
	case "lg2":
		return kFLg2
	case "ex2":
		return kFEx2
	case "tanh":
		return kFTanh
	case "abs":
		return kFAbs
	case "neg":
		return kFNeg
	case "min":
		return kFMin
	case "max":
		return kFMax
	case "copysign":
		return kCopysign
	case "testp":
		return kTestp
	}
	return kInvalid
}

var testpClasses = map[string]uint32{"finite": 1, "infinite": 2, "number": 3, "notanumber": 4, "normal": 5, "subnormal": 6}

func decArith(o *Op, m *mods, in *ptx.Inst) error {
	if err := checkDst(in); err != nil {
		return err
	}
	if len(m.types) == 0 && (in.Op == "add" || in.Op == "sub" || in.Op == "min" || in.Op == "max") {
		// Packed 16-bit integer SIMD forms (PTX 8.0): add/sub/min/max .u16x2,
		// .s16x2 (and min/max.relu.s16x2), evaluated per half.
		et := ptx.TypeNone
		switch {
		case m.take("u16x2"):
			et = ptx.U16
		case m.take("s16x2"):
			et = ptx.S16
		}
		if et != ptx.TypeNone {
			return decX2(o, m, in, et)
		}
	}
	t, err := m.oneType()
	if err != nil {
		return err
	}
	o.t = t
	r, ir, err := m.rounding()
	if err != nil {
		return err
	}
	if ir {
		return fmt.Errorf("%s: integer rounding modifiers apply to cvt only", in.Op)
	}
	o.rnd = r
	o.ftz = m.take("ftz")
	o.sat = m.take("sat")
	o.relu = m.take("relu")
	if isFloat(t) {
		return decFloat(o, m, in)
	}
	if !isInt(t) {
		return fmt.Errorf("%s: type .%s is not supported", in.Op, t)
	}
	if r != rnNone || o.ftz || (o.relu && !(in.Op == "min" || in.Op == "max")) {
		return fmt.Errorf("%s.%s: float modifier on an integer instruction", in.Op, t)
	}
	o.setcc = m.take("cc")
	w := width(t)
	sgn := isSigned(t)
	if o.setcc && !(w == 32 || w == 64) {
		return fmt.Errorf("%s.cc: type .%s must be 32 or 64 bits", in.Op, t)
	}
	if o.setcc && !(in.Op == "add" || in.Op == "sub" || in.Op == "addc" || in.Op == "subc" || in.Op == "mad" || in.Op == "madc") {
		return fmt.Errorf("%s: .cc is not allowed", in.Op)
	}
	sub := func() error {
		switch {
		case m.take("lo"):
			o.sub = subLo
		case m.take("hi"):
			o.sub = subHi
		case m.take("wide"):
			o.sub = subWide
			if w == 64 {
				return fmt.Errorf("%s.wide: type .%s cannot be widened", in.Op, t)
			}
		default:
			return fmt.Errorf("%s.%s needs .lo, .hi or .wide", in.Op, t)
		}
		return nil
	}
	satOK := false
	switch in.Op {
	case "add", "sub":
		o.kind = kAdd
		if in.Op == "sub" {
			o.kind = kSub
		}
		satOK = t == ptx.S32
		return finishSat(o, satOK, in, t, t, t)
	case "addc", "subc":
		o.kind = kAddc
		if in.Op == "subc" {
			o.kind = kSubc
		}
		if !(w == 32 || w == 64) {
			return fmt.Errorf("%s: type .%s must be 32 or 64 bits", in.Op, t)
		}
		return finishSat(o, false, in, t, t, t)
	case "mul":
		o.kind = kMul
		if err := sub(); err != nil {
			return err
		}
		return finishSat(o, false, in, t, t, t)
	case "mad", "madc":
		o.kind = kMad
		if in.Op == "madc" {
			o.kind = kMadc
			if !(w == 32 || w == 64) {
				return fmt.Errorf("madc: type .%s must be 32 or 64 bits", t)
			}
		}
		if err := sub(); err != nil {
			return err
		}
		if o.kind == kMadc && o.sub == subWide {
			return fmt.Errorf("madc: .wide is not allowed")
		}
		satOK = o.sub == subHi && t == ptx.S32 && !o.setcc && o.kind == kMad
		ct := t
		if o.sub == subWide {
			ct = widen(t)
		}
		return finishSat(o, satOK, in, t, t, t, ct)
	case "mul24", "mad24":
		o.kind = kMul24
		if in.Op == "mad24" {
			o.kind = kMad24
		}
		if t != ptx.U32 && t != ptx.S32 {
			return fmt.Errorf("%s: type .%s must be .u32 or .s32", in.Op, t)
		}
		if err := sub(); err != nil {
			return err
		}
		if o.sub == subWide {
			return fmt.Errorf("%s: .wide is not allowed", in.Op)
		}
		if o.kind == kMul24 {
			return finishSat(o, false, in, t, t, t)
		}
		return finishSat(o, o.sub == subHi && t == ptx.S32, in, t, t, t, t)
	case "sad":
		o.kind = kSad
		return finishSat(o, false, in, t, t, t, t)
	case "div", "rem":
		o.kind = kDiv
		if in.Op == "rem" {
			o.kind = kRem
		}
		return finishSat(o, false, in, t, t, t)
	case "abs", "neg":
		if !sgn {
			return fmt.Errorf("%s: type .%s must be signed", in.Op, t)
		}
		o.kind = kAbs
		if in.Op == "neg" {
			o.kind = kNeg
		}
		return finishSat(o, false, in, t, t)
	case "min", "max":
		o.kind = kMin
		if in.Op == "max" {
			o.kind = kMax
		}
		if o.relu && t != ptx.S32 {
			return fmt.Errorf("%s.relu: type .%s must be .s32", in.Op, t)
		}
		return finishSat(o, false, in, t, t, t)
	}
	return fmt.Errorf("%s: not defined for integer type .%s", in.Op, t)
}

// finishSat checks .sat and records the sources Args[1..].
func finishSat(o *Op, satOK bool, in *ptx.Inst, t ptx.Type, srcs ...ptx.Type) error {
	if o.sat && !satOK {
		return fmt.Errorf("%s.%s: .sat is not allowed here", in.Op, t)
	}
	return o.setSrcs(in, 1, srcs...)
}

func decFloat(o *Op, m *mods, in *ptx.Inst) error {
	t := o.t
	o.kind = floatKind(in.Op)
	if o.kind == kInvalid {
		return fmt.Errorf("%s: not defined for float type .%s", in.Op, t)
	}
	o.approx = m.take("approx")
	full := m.take("full")
	scalar := t == ptx.F32 || t == ptx.F64
	half := t == ptx.F16 || t == ptx.F16x2 || t == ptx.BF16 || t == ptx.BF16x2
	if t == ptx.TF32 {
		return fmt.Errorf("%s: type .tf32 is not an arithmetic type", in.Op)
	}
	if o.ftz && t == ptx.F64 && !(o.approx && (o.kind == kFRcp || o.kind == kFRsqrt)) {
		return fmt.Errorf("%s.ftz.f64: .ftz applies to f32 only (and to rcp/rsqrt.approx.ftz.f64)", in.Op)
	}
	if o.sat && !(t == ptx.F32 || t == ptx.F16 || t == ptx.F16x2) {
		return fmt.Errorf("%s.sat: not allowed on .%s", in.Op, t)
	}
	if o.relu && !(half && (o.kind == kFFma || o.kind == kFMin || o.kind == kFMax)) {
		return fmt.Errorf("%s.relu: not allowed on .%s", in.Op, t)
	}
	if o.approx && o.rnd != rnNone {
		return fmt.Errorf("%s: .approx with a rounding modifier", in.Op)
	}
	n := 2
	switch o.kind {
	case kFAdd, kFSub, kFMul:
		if o.approx || full {
			return fmt.Errorf("%s: .approx/.full not allowed", in.Op)
		}
	case kFFma:
		n = 3
		if o.approx || full {
			return fmt.Errorf("%s: .approx/.full not allowed", in.Op)
		}
		if in.Op == "mad" && !scalar {
			return fmt.Errorf("mad: type .%s is not allowed (use fma)", t)
		}
	case kFDiv:
		if !scalar {
			return fmt.Errorf("div: type .%s is not allowed", t)
		}
		if full {
			if t != ptx.F32 || o.rnd != rnNone || o.approx {
				return fmt.Errorf("div.full: only div.full{.ftz}.f32")
			}
			o.approx = true
			o.sub = 1 // full-range approximation
		}
		if !o.approx && o.rnd == rnNone && t == ptx.F32 {
			return fmt.Errorf("div.f32 needs .approx, .full or a rounding modifier")
		}
	case kFRcp, kFSqrt:
		n = 1
		if !scalar {
			return fmt.Errorf("%s: type .%s is not allowed", in.Op, t)
		}
		if !o.approx && o.rnd == rnNone {
			return fmt.Errorf("%s needs .approx or a rounding modifier", in.Op)
		}
		if o.approx && t == ptx.F64 && o.kind == kFSqrt {
			return fmt.Errorf("sqrt.approx.f64 is not defined")
		}
		if o.approx && t == ptx.F64 && o.kind == kFRcp && !o.ftz {
			return fmt.Errorf("rcp.approx.f64 is not defined: the PTX form is rcp.approx.ftz.f64")
		}
	case kFRsqrt:
		n = 1
		if !scalar || !o.approx {
			return fmt.Errorf("rsqrt: only rsqrt.approx{.ftz}.f32/.f64")
		}
	case kFSin, kFCos, kFLg2:
		n = 1
		if t != ptx.F32 || !o.approx {
			return fmt.Errorf("%s: only %s.approx{.ftz}.f32", in.Op, in.Op)
		}
	case kFEx2, kFTanh:
		n = 1
		if t == ptx.F64 || !o.approx {
			return fmt.Errorf("%s: only %s.approx on f32, f16, bf16 and their x2 forms", in.Op, in.Op)
		}
	case kFAbs, kFNeg:
		n = 1
		if o.approx || full || o.rnd != rnNone {
			return fmt.Errorf("%s: unexpected modifier", in.Op)
		}
	case kFMin, kFMax:
		o.nan = m.take("NaN")
		o.xorsign = m.take("xorsign")
		o.absMM = m.take("abs")
		if o.xorsign && !o.absMM {
			return fmt.Errorf("%s.xorsign needs .abs", in.Op)
		}
		if o.approx || full || o.rnd != rnNone {
			return fmt.Errorf("%s: unexpected modifier", in.Op)
		}
		if len(in.Args) == 4 { // three-input form (PTX 8.8)
			if t != ptx.F32 || o.xorsign {
				return fmt.Errorf("%s with three inputs: only %s{.ftz}{.NaN}{.abs}.f32", in.Op, in.Op)
			}
			n = 3
		}
	case kCopysign:
		if !scalar {
			return fmt.Errorf("copysign: type .%s is not allowed", t)
		}
	case kTestp:
		n = 1
		if !scalar {
			return fmt.Errorf("testp: type .%s is not allowed", t)
		}
		for w, c := range testpClasses {
			if m.take(w) {
				o.imm = c
			}
		}
		if o.imm == 0 {
			return fmt.Errorf("testp needs a class (.finite, .infinite, .number, .notanumber, .normal, .subnormal)")
		}
	}
	if o.approx && (o.kind == kFAdd || o.kind == kFSub || o.kind == kFMul || o.kind == kFFma) {
		return fmt.Errorf("%s.approx is not defined", in.Op)
	}
	if (o.kind == kFFma) && o.rnd == rnNone && t == ptx.F64 {
		return fmt.Errorf("%s.f64 needs a rounding modifier", in.Op)
	}
	types := make([]ptx.Type, n)
	for i := range types {
		types[i] = t
	}
	return o.setSrcs(in, 1, types...)
}

var prmtModes = map[string]uint32{"f4e": 1, "b4e": 2, "rc8": 3, "ecl": 4, "ecr": 5, "rc16": 6}

func decBits(o *Op, m *mods, in *ptx.Inst) error {
	if err := checkDst(in); err != nil && in.Op != "lop3" {
		return err
	}
	switch in.Op {
	case "dp4a", "dp2a":
		if len(m.types) != 2 {
			return fmt.Errorf("%s: expected two types (.atype.btype)", in.Op)
		}
		o.kind = kDp4a
		if in.Op == "dp2a" {
			o.kind = kDp2a
			switch {
			case m.take("lo"):
				o.sub = subLo
			case m.take("hi"):
				o.sub = subHi
			default:
				return fmt.Errorf("dp2a needs .lo or .hi")
			}
		}
		o.at, o.st = m.types[0], m.types[1]
		for _, x := range m.types {
			if x != ptx.U32 && x != ptx.S32 {
				return fmt.Errorf("%s: types must be .u32 or .s32", in.Op)
			}
		}
		o.t = ptx.U32
		if o.at == ptx.S32 || o.st == ptx.S32 {
			o.t = ptx.S32
		}
		return o.setSrcs(in, 1, ptx.B32, ptx.B32, o.t)
	}
	t, err := m.oneType()
	if err != nil {
		return err
	}
	o.t = t
	w := width(t)
	switch in.Op {
	case "popc", "clz", "brev":
		o.kind = map[string]kind{"popc": kPopc, "clz": kClz, "brev": kBrev}[in.Op]
		if t != ptx.B32 && t != ptx.B64 {
			return fmt.Errorf("%s: type must be .b32 or .b64", in.Op)
		}
		return o.setSrcs(in, 1, t)
	case "bfind":
		o.kind = kBfind
		if !(t == ptx.U32 || t == ptx.S32 || t == ptx.U64 || t == ptx.S64) {
			return fmt.Errorf("bfind: type must be .u32, .s32, .u64 or .s64")
		}
		if m.take("shiftamt") {
			o.sub = 1
		}
		return o.setSrcs(in, 1, t)
	case "fns":
		o.kind = kFns
		if t != ptx.B32 {
			return fmt.Errorf("fns: type must be .b32")
		}
		return o.setSrcs(in, 1, ptx.B32, ptx.U32, ptx.S32)
	case "bfe":
		o.kind = kBfe
		if !(t == ptx.U32 || t == ptx.S32 || t == ptx.U64 || t == ptx.S64) {
			return fmt.Errorf("bfe: type must be .u32, .s32, .u64 or .s64")
		}
		return o.setSrcs(in, 1, t, ptx.U32, ptx.U32)
	case "bfi":
		o.kind = kBfi
		if t != ptx.B32 && t != ptx.B64 {
			return fmt.Errorf("bfi: type must be .b32 or .b64")
		}
		return o.setSrcs(in, 1, t, t, ptx.U32, ptx.U32)
	case "prmt":
		o.kind = kPrmt
		if t != ptx.B32 {
			return fmt.Errorf("prmt: type must be .b32")
		}
		for w, c := range prmtModes {
			if m.take(w) {
				o.imm = c
			}
		}
		return o.setSrcs(in, 1, t, t, t)
	case "shl", "shr":
		o.kind = kShl
		if in.Op == "shr" {
			o.kind = kShr
		}
		if !isInt(t) || w < 16 {
			return fmt.Errorf("%s: type .%s is not allowed", in.Op, t)
		}
		if in.Op == "shl" && t != ptx.B16 && t != ptx.B32 && t != ptx.B64 {
			return fmt.Errorf("shl: type must be .b16, .b32 or .b64")
		}
		return o.setSrcs(in, 1, t, ptx.U32)
	case "shf":
		o.kind = kShf
		switch {
		case m.take("l"):
			o.left = true
		case m.take("r"):
		default:
			return fmt.Errorf("shf needs .l or .r")
		}
		switch {
		case m.take("clamp"):
			o.clamp = true
		case m.take("wrap"):
		default:
			return fmt.Errorf("shf needs .wrap or .clamp")
		}
		if t != ptx.B32 && t != ptx.B64 {
			return fmt.Errorf("shf: type must be .b32 or .b64")
		}
		return o.setSrcs(in, 1, t, t, ptx.U32)
	case "and", "or", "xor", "not", "cnot":
		o.kind = map[string]kind{"and": kAnd, "or": kOr, "xor": kXor, "not": kNot, "cnot": kCnot}[in.Op]
		if !(t == ptx.Pred || t == ptx.B16 || t == ptx.B32 || t == ptx.B64) || (t == ptx.Pred && in.Op == "cnot") {
			return fmt.Errorf("%s: type .%s is not allowed", in.Op, t)
		}
		if o.kind == kNot || o.kind == kCnot {
			return o.setSrcs(in, 1, t)
		}
		return o.setSrcs(in, 1, t, t)
	case "bmsk", "szext":
		o.kind = kBmsk
		want := t == ptx.B32
		if in.Op == "szext" {
			o.kind = kSzext
			want = t == ptx.U32 || t == ptx.S32
		}
		if !want {
			return fmt.Errorf("%s: type .%s is not allowed", in.Op, t)
		}
		switch {
		case m.take("clamp"):
			o.clamp = true
		case m.take("wrap"):
		default:
			return fmt.Errorf("%s needs .clamp or .wrap", in.Op)
		}
		return o.setSrcs(in, 1, t, ptx.U32)
	case "lop3":
		o.kind = kLop3
		if t != ptx.B32 {
			return fmt.Errorf("lop3: type must be .b32")
		}
		switch {
		case m.take("and"):
			o.bop = bopAnd
		case m.take("or"):
			o.bop = bopOr
		}
		n := 5
		if o.bop != bopNone {
			n = 6
			if len(in.Args) == 0 || in.Args[0].Kind != ptx.OpPair {
				return fmt.Errorf("lop3 with a boolean operator needs a d|p destination")
			}
			o.ndst = 2
		} else if err := checkDst(in); err != nil {
			return err
		}
		if len(in.Args) != n {
			return fmt.Errorf("lop3: expected %d operands, found %d", n, len(in.Args))
		}
		lut := in.Args[4]
		if lut.Kind != ptx.OpImm || lut.Imm < 0 || lut.Imm > 255 {
			return fmt.Errorf("lop3: immLut must be an immediate 0..255")
		}
		o.imm = uint32(lut.Imm)
		for i := 1; i <= 3; i++ {
			if err := o.addSrc(in, i, t); err != nil {
				return err
			}
		}
		if o.bop != bopNone {
			return o.addSrc(in, 5, ptx.Pred)
		}
		return nil
	}
	return fmt.Errorf("%s: not implemented", in.Op)
}

func decCmp(o *Op, m *mods, in *ptx.Inst) error {
	switch in.Op {
	case "selp":
		if err := checkDst(in); err != nil {
			return err
		}
		t, err := m.oneType()
		if err != nil {
			return err
		}
		o.kind, o.t = kSelp, t
		return o.setSrcs(in, 1, t, t, ptx.Pred)
	case "slct":
		if err := checkDst(in); err != nil {
			return err
		}
		if len(m.types) != 2 {
			return fmt.Errorf("slct: expected .dtype.stype")
		}
		o.kind, o.t, o.st = kSlct, m.types[0], m.types[1]
		o.ftz = m.take("ftz")
		if o.st != ptx.S32 && o.st != ptx.F32 {
			return fmt.Errorf("slct: source type must be .s32 or .f32")
		}
		return o.setSrcs(in, 1, o.t, o.t, o.st)
	}
	found := false
	for w, c := range cmpNames {
		if m.take(w) {
			if found {
				return fmt.Errorf("%s: more than one comparison", in.Op)
			}
			o.cmp, found = c, true
		}
	}
	if !found {
		return fmt.Errorf("%s: missing comparison operator", in.Op)
	}
	switch {
	case m.take("and"):
		o.bop = bopAnd
	case m.take("or"):
		o.bop = bopOr
	case m.take("xor"):
		o.bop = bopXor
	}
	o.ftz = m.take("ftz")
	var st ptx.Type
	if in.Op == "setp" {
		t, err := m.oneType()
		if err != nil {
			return err
		}
		o.kind, o.t, st = kSetp, ptx.Pred, t
		if len(in.Args) > 0 && in.Args[0].Kind == ptx.OpPair {
			o.ndst = 2
		} else if err := checkDst(in); err != nil {
			return err
		}
	} else {
		if err := checkDst(in); err != nil {
			return err
		}
		if len(m.types) != 2 {
			return fmt.Errorf("set: expected .dtype.stype")
		}
		o.kind, o.t, st = kSet, m.types[0], m.types[1]
		if !(o.t == ptx.U32 || o.t == ptx.S32 || o.t == ptx.F32 || o.t == ptx.F16 || o.t == ptx.BF16 || o.t == ptx.F16x2 || o.t == ptx.BF16x2) {
			return fmt.Errorf("set: destination type .%s is not supported", o.t)
		}
	}
	o.st = st
	if st == ptx.F16x2 || st == ptx.BF16x2 {
		if o.kind == kSetp && o.ndst != 2 {
			return fmt.Errorf("setp.%s needs a p|q destination", st)
		}
		if o.kind == kSet && !(o.t == ptx.F16x2 || o.t == ptx.BF16x2 || o.t == ptx.U32 || o.t == ptx.S32) {
			return fmt.Errorf("set: destination .%s with .%s sources is not supported", o.t, st)
		}
	} else if o.kind == kSet && (o.t == ptx.F16x2 || o.t == ptx.BF16x2) {
		return fmt.Errorf("set: destination .%s needs packed sources", o.t)
	}
	if st == ptx.Pred || st == ptx.TF32 || st == ptx.B128 || st.Size() == 0 {
		return fmt.Errorf("%s: source type .%s is not supported", in.Op, st)
	}
	if o.cmp >= cmpLO && o.cmp <= cmpHS && isFloat(st) {
		return fmt.Errorf("%s: comparison lo/ls/hi/hs is for integers", in.Op)
	}
	if o.cmp >= cmpEQU && !isFloat(st) {
		return fmt.Errorf("%s: unordered comparisons are for floats", in.Op)
	}
	if o.bop != bopNone {
		return o.setSrcs(in, 1, st, st, ptx.Pred)
	}
	return o.setSrcs(in, 1, st, st)
}

func decCvt(o *Op, m *mods, in *ptx.Inst) error {
	if err := checkDst(in); err != nil {
		return err
	}
	r, ir, err := m.rounding()
	if err != nil {
		return err
	}
	o.rnd, o.intRnd = r, ir
	o.ftz = m.take("ftz")
	o.sat = m.take("sat")
	o.satfin = m.take("satfinite")
	o.relu = m.take("relu")
	if m.take("pack") {
		if len(m.types) < 2 || len(m.types) > 3 || !o.sat || o.rnd != rnNone {
			return fmt.Errorf("cvt.pack: expected cvt.pack.sat.dtype.s32{.b32}")
		}
		o.kind, o.t = kCvtPackInt, m.types[0]
		switch o.t {
		case ptx.U8, ptx.S8, ptx.U16, ptx.S16:
		default:
			return fmt.Errorf("cvt.pack: destination type .%s is not supported (sub-byte types are not implemented)", o.t)
		}
		if m.types[1] != ptx.S32 || (len(m.types) == 3 && m.types[2] != ptx.B32) {
			return fmt.Errorf("cvt.pack: expected .s32 sources and a .b32 third operand")
		}
		if len(m.types) == 3 {
			return o.setSrcs(in, 1, ptx.S32, ptx.S32, ptx.B32)
		}
		return o.setSrcs(in, 1, ptx.S32, ptx.S32)
	}
	if len(m.types) != 2 {
		return fmt.Errorf("cvt: expected .dtype.atype, found %d types", len(m.types))
	}
	d, a := m.types[0], m.types[1]
	o.t, o.st = d, a
	packed := d == ptx.F16x2 || d == ptx.BF16x2 || d == ptx.E4M3x2 || d == ptx.E5M2x2
	if packed && (a == ptx.F32 || a == ptx.F16x2) && len(in.Args) == 3 && a == ptx.F32 {
		o.kind = kCvtPack
		if d == ptx.E4M3x2 || d == ptx.E5M2x2 {
			if o.rnd != rnRN || !o.satfin {
				return fmt.Errorf("cvt.%s.f32 needs .rn.satfinite", d)
			}
		} else if o.rnd == rnNone || o.intRnd {
			return fmt.Errorf("cvt.%s.f32 needs .rn/.rz/.rm/.rp", d)
		}
		return o.setSrcs(in, 1, ptx.F32, ptx.F32)
	}
	if d == ptx.E4M3x2 || d == ptx.E5M2x2 {
		if (a != ptx.F16x2 && a != ptx.BF16x2) || o.rnd != rnRN || !o.satfin {
			return fmt.Errorf("cvt.%s.%s is not supported (need .rn.satfinite from an f32 pair, f16x2 or bf16x2)", d, a)
		}
		o.kind = kCvt
		return o.setSrcs(in, 1, a)
	}
	if d == ptx.F16x2 && (a == ptx.E4M3x2 || a == ptx.E5M2x2) {
		o.kind = kCvtUnpack
		return o.setSrcs(in, 1, a)
	}
	if packed || a == ptx.F16x2 || a == ptx.BF16x2 || a == ptx.E4M3x2 || a == ptx.E5M2x2 || d == ptx.B128 || a == ptx.B128 {
		return fmt.Errorf("cvt.%s.%s is not supported", d, a)
	}
	if d == ptx.Pred || a == ptx.Pred {
		return fmt.Errorf("cvt: predicate types are not allowed")
	}
	if d == ptx.TF32 {
		if a != ptx.F32 || !(o.rnd == rnRNA || o.rnd == rnRN || o.rnd == rnRZ) || o.intRnd {
			return fmt.Errorf("cvt.tf32: only cvt.rna/.rn/.rz{.satfinite}.tf32.f32")
		}
	} else if a == ptx.TF32 {
		return fmt.Errorf("cvt from .tf32 is not supported")
	}
	df, af := isFloat(d), isFloat(a)
	switch {
	case df && af:
		if o.intRnd && d != a {
			return fmt.Errorf("cvt.%s.%s: integer rounding needs equal float types", d, a)
		}
		if !o.intRnd && d.Size() < a.Size() && o.rnd == rnNone {
			return fmt.Errorf("cvt.%s.%s needs a rounding modifier", d, a)
		}
	case df && !af:
		if o.intRnd {
			return fmt.Errorf("cvt.%s.%s: integer rounding is not allowed", d, a)
		}
	case !df && af:
		if o.rnd != rnNone && !o.intRnd {
			return fmt.Errorf("cvt.%s.%s needs an integer rounding modifier", d, a)
		}
	default:
		if o.rnd != rnNone {
			return fmt.Errorf("cvt.%s.%s: rounding modifier on an integer conversion", d, a)
		}
	}
	o.kind = kCvt
	return o.setSrcs(in, 1, a)
}

// decX2 decodes a packed 16x2 integer instruction: o works on the b32
// register, o.elem on each 16-bit half.
func decX2(o *Op, m *mods, in *ptx.Inst, et ptx.Type) error {
	e := &Op{ndst: 1, t: et, nsrc: 2, srcType: [4]ptx.Type{et, et}}
	e.relu = m.take("relu")
	if e.relu && (et != ptx.S16 || in.Op == "add" || in.Op == "sub") {
		return fmt.Errorf("%s.relu: only min/max.relu.s16x2", in.Op)
	}
	e.kind = map[string]kind{"add": kAdd, "sub": kSub, "min": kMin, "max": kMax}[in.Op]
	o.kind, o.t, o.elem = kX2, ptx.B32, e
	return o.setSrcs(in, 1, ptx.B32, ptx.B32)
}
