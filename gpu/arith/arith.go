// Package arith gives the bit-exact per-lane semantics of every lane-local PTX
// instruction: integer, bit, float (f64, f32, f16, bf16 and their x2 forms),
// comparison, selection and conversion. The simulator decodes each instruction
// once with Decode and calls Eval for every active lane.
//
// Semantics follow the PTX ISA manual. Where the manual leaves a result
// unspecified, Eval gives what an H200 gives, as recorded in the ISA oracle
// (testdata/golden/isa):
//   - integer division and remainder by zero: all ones;
//   - f32, f16 and bf16 NaN results: the canonical NaN (0x7fffffff, 0x7fff);
//     f64 NaN operands propagate quieted (sign and payload kept, first NaN of
//     a, b, c), NaNs created by invalid f64 operations are 0xfff8000000000000;
//   - cvt to integers saturates; NaN gives 0 for f32 sources and 32-bit or
//     narrower destinations, the sign-bit pattern for f64 sources or 64-bit
//     destinations; cvt NaN payloads between f32, f64 and bf16 as documented
//     at cvtNaN.
//
// Every rounding modifier is exact: f32, f16 and bf16 operations are computed
// exactly in float64 (with an exact error term) and rounded once; f64
// operations with .rz/.rm/.rp use math/big. The f32 .approx functions and
// div.approx/div.full follow the H200's SASS: one MUFU instruction (which
// flushes subnormals) with the FMUL scaling ptxas adds for the forms without
// .ftz, and sin/cos reduced by FMUL.RZ with 1/(2π) (mufu.go); the MUFU value
// itself is modelled as the rounded function (lg2: truncated outside [1, 4)),
// bit-exact on part of the inputs only (docs/special-functions.md gives the
// measured fractions); the 16-bit ex2/tanh forms truncate the f32 unit's result.
package arith

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// ErrNotArith is returned by Decode for instructions that are not lane-local computations (memory, control flow, special registers, warp-level ops, mov of a symbol address or a vector pack/unpack).
var ErrNotArith = errors.New("not a lane-local instruction")

// kind is the computation an Op performs.
type kind uint8

const (
	kInvalid kind = iota
	kMov
	// integer
	kAdd
	kSub
	kAddc
	kSubc
	kMul   // sub: lo/hi/wide
	kMad   // sub: lo/hi/wide
	kMadc  // sub: lo/hi
	kMul24 // sub: lo/hi
	kMad24 // sub: lo/hi
	kSad
	kDiv
	kRem
	kAbs
	kNeg
	kMin
	kMax
	kPopc
	kClz
	kBfind
	kFns
	kBrev
	kBfe
	kBfi
	kPrmt
	kDp4a
	kDp2a
	kShl
	kShr
	kShf
	kAnd
	kOr
	kXor
	kNot
	kCnot
	kLop3
	kBmsk
	kSzext
	kX2 // packed 16x2 integer add/sub/min/max; the element op is Op.elem
	// float
	kFAdd
	kFSub
	kFMul
	kFFma
	kFDiv
	kFRcp
	kFSqrt
	kFRsqrt
	kFSin
	kFCos
	kFLg2
	kFEx2
	kFTanh
	kFAbs
	kFNeg
	kFMin
	kFMax
	kTestp
	kCopysign
	// comparison and selection
	kSetp
	kSet
	kSelp
	kSlct
	// conversion
	kCvt
	kCvtPack // two-source cvt to a packed pair (f16x2, bf16x2, e4m3x2, e5m2x2)
	kCvtUnpack
	kCvtPackInt // cvt.pack.sat.{u8,s8,u16,s16}.s32.b32
	kVideo      // video instructions (video.go); the operation is Op.vid
)

// variant values for Op.sub.
const (
	subLo = iota
	subHi
	subWide
)

// comparison operators of setp/set.
type cmpOp uint8

const (
	cmpEQ cmpOp = iota
	cmpNE
	cmpLT
	cmpLE
	cmpGT
	cmpGE
	cmpLO
	cmpLS
	cmpHI
	cmpHS
	cmpEQU
	cmpNEU
	cmpLTU
	cmpLEU
	cmpGTU
	cmpGEU
	cmpNUM
	cmpNAN
)

var cmpNames = map[string]cmpOp{
	"eq": cmpEQ, "ne": cmpNE, "lt": cmpLT, "le": cmpLE, "gt": cmpGT, "ge": cmpGE,
	"lo": cmpLO, "ls": cmpLS, "hi": cmpHI, "hs": cmpHS,
	"equ": cmpEQU, "neu": cmpNEU, "ltu": cmpLTU, "leu": cmpLEU, "gtu": cmpGTU, "geu": cmpGEU,
	"num": cmpNUM, "nan": cmpNAN,
}

// boolean combine operators of setp/set.
type boolOp uint8

const (
	bopNone boolOp = iota
	bopAnd
	bopOr
	bopXor
)

// Op is one decoded lane-local computation.
type Op struct {
	kind    kind
	t       ptx.Type // the instruction type (destination type of cvt/set/slct)
	st      ptx.Type // source type of cvt, set and slct; operand type of dp4a/dp2a b
	at      ptx.Type // operand type of dp4a/dp2a a
	rnd     rnd
	intRnd  bool // cvt .rni/.rzi/.rmi/.rpi
	sub     uint8
	ftz     bool
	sat     bool
	satfin  bool
	relu    bool
	nan     bool // min/max .NaN
	xorsign bool // min/max .xorsign (with .abs)
	absMM   bool // min/max .abs
	approx  bool
	setcc   bool // .cc: write the carry flag
	clamp   bool // shf .clamp
	left    bool // shf .l
	cmp     cmpOp
	bop     boolOp
	imm     uint32 // lop3 LUT, prmt mode, testp class
	nsrc    int
	ndst    int
	srcArg  [4]int
	srcType [4]ptx.Type
	isConst [4]bool
	cval    [4]uint64
	name    string
	fast    uint8     // a fast path chosen by specialize
	elem    *Op       // the per-half operation of a packed 16x2 integer op
	vid     *videoOp  // the video instruction (kVideo)
	negSrc  [3]uint64 // sign bits flipped in the sources before evaluating (DecodeFused)
	hasNeg  bool      // some negSrc is set
}

// NumSrc is the number of source operands Eval reads (src[i] is in.Args[SrcArg(i)]: normally Args[1..], after a p|q pair Args[1..] as well since the pair is one operand).
func (o *Op) NumSrc() int { return o.nsrc }

// SrcArg returns the index into in.Args of source i.
func (o *Op) SrcArg(i int) int {
	if i < 0 || i >= o.nsrc {
		return -1
	}
	return o.srcArg[i]
}

// SrcType returns the PTX type in which Eval interprets source i.
func (o *Op) SrcType(i int) ptx.Type {
	if i < 0 || i >= o.nsrc {
		return ptx.TypeNone
	}
	return o.srcType[i]
}

// Const reports whether source i is an immediate and, if so, its raw bits converted to the source type.
func (o *Op) Const(i int) (bits uint64, ok bool) {
	if i < 0 || i >= o.nsrc || !o.isConst[i] {
		return 0, false
	}
	return o.cval[i], true
}

// NumDst is 1, or 2 when the destination is a p|q pair (d1 is the second predicate).
func (o *Op) NumDst() int { return o.ndst }

// WritesCC reports whether Eval updates the carry flag (.cc).
func (o *Op) WritesCC() bool { return o.setcc }

// ReadsCC reports whether Eval reads the carry flag (addc, subc, madc).
func (o *Op) ReadsCC() bool { return o.kind == kAddc || o.kind == kSubc || o.kind == kMadc }

// DstType is the PTX type of the destination (Pred for predicates).
func (o *Op) DstType() ptx.Type {
	switch o.kind {
	case kSetp, kTestp:
		return ptx.Pred
	case kPopc, kClz, kBfind:
		return ptx.U32
	case kMul, kMad:
		if o.sub == subWide {
			return widen(o.t)
		}
	}
	return o.t
}

// String returns the instruction name the Op was decoded from ("add.rn.f32").
func (o *Op) String() string { return o.name }

// mods is the modifier list of an instruction being decoded.
type mods struct {
	op    string
	types []ptx.Type
	words []string
	used  []bool
}

func newMods(in *ptx.Inst) *mods {
	m := &mods{op: in.Op}
	for _, s := range in.Mods {
		if t, ok := ptx.TypeByName(s); ok {
			m.types = append(m.types, t)
			continue
		}
		m.words = append(m.words, s)
		m.used = append(m.used, false)
	}
	return m
}

// take reports whether modifier s is present and marks it used.
func (m *mods) take(s string) bool {
	for i, w := range m.words {
		if w == s && !m.used[i] {
			m.used[i] = true
			return true
		}
	}
	return false
}

// leftover returns an error naming unused modifiers, or nil.
func (m *mods) leftover() error {
	var bad []string
	for i, w := range m.words {
		if !m.used[i] {
			bad = append(bad, "."+w)
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("%s: unsupported modifier %s", m.op, strings.Join(bad, " "))
	}
	return nil
}

// rounding takes a rounding modifier; intRnd reports a .rni-style one.
func (m *mods) rounding() (r rnd, intRnd bool, err error) {
	n := 0
	for _, c := range []struct {
		s   string
		r   rnd
		int bool
	}{{"rn", rnRN, false}, {"rz", rnRZ, false}, {"rm", rnRM, false}, {"rp", rnRP, false}, {"rna", rnRNA, false},
		{"rni", rnRN, true}, {"rzi", rnRZ, true}, {"rmi", rnRM, true}, {"rpi", rnRP, true}} {
		if m.take(c.s) {
			r, intRnd = c.r, c.int
			n++
		}
	}
	if n > 1 {
		return 0, false, fmt.Errorf("%s: more than one rounding modifier", m.op)
	}
	if m.take("rs") {
		return 0, false, fmt.Errorf("%s: stochastic rounding .rs is not implemented", m.op)
	}
	return r, intRnd, nil
}

func isFloat(t ptx.Type) bool {
	switch t {
	case ptx.F16, ptx.F16x2, ptx.BF16, ptx.BF16x2, ptx.F32, ptx.F64, ptx.TF32:
		return true
	}
	return false
}

func isSigned(t ptx.Type) bool {
	switch t {
	case ptx.S8, ptx.S16, ptx.S32, ptx.S64:
		return true
	}
	return false
}

func isInt(t ptx.Type) bool {
	switch t {
	case ptx.S8, ptx.S16, ptx.S32, ptx.S64, ptx.U8, ptx.U16, ptx.U32, ptx.U64, ptx.B8, ptx.B16, ptx.B32, ptx.B64:
		return true
	}
	return false
}

// width is the width of a type in bits (1 for pred).
func width(t ptx.Type) uint {
	if t == ptx.Pred {
		return 1
	}
	return uint(t.Size() * 8)
}

// widen returns the type of twice the width with the same signedness.
func widen(t ptx.Type) ptx.Type {
	switch t {
	case ptx.U16:
		return ptx.U32
	case ptx.U32:
		return ptx.U64
	case ptx.S16:
		return ptx.S32
	case ptx.S32:
		return ptx.S64
	case ptx.U8:
		return ptx.U16
	case ptx.S8:
		return ptx.S16
	}
	return t
}

// Decode decodes a PTX instruction once (opcode, modifiers, operand kinds); immediates are converted to raw bits of the source type at decode time.
func Decode(in *ptx.Inst) (*Op, error) {
	if in == nil {
		return nil, errors.New("arith: nil instruction")
	}
	return decodeWith(in, newMods(in))
}

// DecodeParsed is Decode with the modifiers already parsed (gpu/isa's
// decoded form): types are the type modifiers and words every other
// modifier, each in source order, as in in.Mods.
func DecodeParsed(in *ptx.Inst, types []ptx.Type, words []string) (*Op, error) {
	if in == nil {
		return nil, errors.New("arith: nil instruction")
	}
	m := &mods{op: in.Op, types: types, words: words, used: make([]bool, len(words))}
	return decodeWith(in, m)
}

func decodeWith(in *ptx.Inst, m *mods) (*Op, error) {
	o, err := decode(in, m)
	if err != nil {
		return nil, err
	}
	o.name = strings.Join(append([]string{in.Op}, in.Mods...), ".")
	o.specialize()
	return o, nil
}

// notArith lists opcodes that are not lane-local computations.
var notArith = map[string]bool{
	"ld": true, "ldu": true, "st": true, "prefetch": true, "prefetchu": true, "cvta": true, "isspacep": true,
	"bra": true, "brx": true, "call": true, "ret": true, "exit": true, "trap": true, "brkpt": true,
	"bar": true, "barrier": true, "membar": true, "fence": true, "atom": true, "red": true,
	"shfl": true, "vote": true, "match": true, "redux": true, "activemask": true, "nanosleep": true,
	"cp": true, "mma": true, "wmma": true, "ldmatrix": true, "stmatrix": true, "tex": true, "tld4": true,
	"suld": true, "sust": true, "sured": true, "suq": true, "txq": true, "istypep": true, "pmevent": true,
	"elect": true, "mbarrier": true, "griddepcontrol": true, "alloca": true, "stacksave": true, "stackrestore": true,
	"multimem": true, "wgmma": true, "cp.async": true, "setmaxnreg": true, "getctarank": true, "mapa": true,
	"discard": true, "applypriority": true, "createpolicy": true, "clusterlaunchcontrol": true, "tcgen05": true,
}

func decode(in *ptx.Inst, m *mods) (*Op, error) {
	if notArith[in.Op] {
		return nil, fmt.Errorf("%s: %w", in.Op, ErrNotArith)
	}
	o := &Op{ndst: 1}
	var err error
	switch in.Op {
	case "mov":
		err = decMov(o, m, in)
	case "add", "sub", "mul", "mad", "fma", "div", "rem", "abs", "neg", "min", "max", "addc", "subc", "madc",
		"mul24", "mad24", "sad", "rcp", "sqrt", "rsqrt", "sin", "cos", "lg2", "ex2", "tanh", "copysign", "testp":
		err = decArith(o, m, in)
	case "popc", "clz", "bfind", "fns", "brev", "bfe", "bfi", "prmt", "dp4a", "dp2a", "shl", "shr", "shf",
		"and", "or", "xor", "not", "cnot", "lop3", "bmsk", "szext":
		err = decBits(o, m, in)
	case "setp", "set", "selp", "slct":
		err = decCmp(o, m, in)
	case "cvt":
		err = decCvt(o, m, in)
	default:
		if IsVideo(in.Op) {
			err = decVideo(o, m, in)
			break
		}
		return nil, fmt.Errorf("arith: instruction %q is not implemented", in.Op)
	}
	if err != nil {
		return nil, err
	}
	if err := m.leftover(); err != nil {
		return nil, err
	}
	return o, nil
}

// oneType returns the single type modifier of the instruction.
func (m *mods) oneType() (ptx.Type, error) {
	if len(m.types) != 1 {
		return 0, fmt.Errorf("%s: expected one type modifier, found %d (modifiers .%s; packed integer types such as .s16x2 are not implemented)",
			m.op, len(m.types), strings.Join(m.words, "."))
	}
	return m.types[0], nil
}

// setSrcs records sources at Args[first..first+len(types)-1] with the given types.
func (o *Op) setSrcs(in *ptx.Inst, first int, types ...ptx.Type) error {
	if len(in.Args) != first+len(types) {
		return fmt.Errorf("%s: expected %d operands, found %d", in.Op, first+len(types), len(in.Args))
	}
	if len(types) > 4 {
		return fmt.Errorf("%s: too many source operands", in.Op)
	}
	o.nsrc = 0
	for i, t := range types {
		if err := o.addSrc(in, first+i, t); err != nil {
			return err
		}
	}
	return nil
}

// addSrc appends Args[idx] as the next source, of type t.
func (o *Op) addSrc(in *ptx.Inst, idx int, t ptx.Type) error {
	if o.nsrc >= 4 || idx >= len(in.Args) {
		return fmt.Errorf("%s: too many source operands", in.Op)
	}
	i := o.nsrc
	a := &in.Args[idx]
	o.srcArg[i] = idx
	o.srcType[i] = t
	switch a.Kind {
	case ptx.OpReg, ptx.OpSpecial:
		if a.Neg {
			return fmt.Errorf("%s: negated register operand -%s is not supported", in.Op, a.Name)
		}
		if a.Not && t != ptx.Pred {
			return fmt.Errorf("%s: ! on non-predicate operand %s", in.Op, a.Name)
		}
	case ptx.OpImm, ptx.OpFloat:
		v, err := immBits(a, t)
		if err != nil {
			return fmt.Errorf("%s: operand %d: %w", in.Op, idx, err)
		}
		o.isConst[i] = true
		o.cval[i] = v
	default:
		return fmt.Errorf("%s: operand %d is not a register or immediate: %w", in.Op, idx, ErrNotArith)
	}
	o.nsrc++
	return nil
}

// checkDst verifies that Args[0] is a register (or a sink).
func checkDst(in *ptx.Inst) error {
	if len(in.Args) == 0 {
		return fmt.Errorf("%s: missing destination", in.Op)
	}
	switch in.Args[0].Kind {
	case ptx.OpReg, ptx.OpSink:
		return nil
	case ptx.OpVec:
		return fmt.Errorf("%s: vector destination: %w", in.Op, ErrNotArith)
	}
	return fmt.Errorf("%s: destination is not a register", in.Op)
}

// immBits converts an immediate to the raw bits of type t.
func immBits(a *ptx.Operand, t ptx.Type) (uint64, error) {
	w := width(t)
	mask := uint64(math.MaxUint64)
	if w < 64 {
		mask = 1<<w - 1
	}
	if a.Kind == ptx.OpImm {
		switch t {
		case ptx.F32:
			return uint64(math.Float32bits(float32(a.Imm))), nil
		case ptx.F64:
			return math.Float64bits(float64(a.Imm)), nil
		case ptx.Pred:
			if a.Imm != 0 {
				return 1, nil
			}
			return 0, nil
		}
		return uint64(a.Imm) & mask, nil
	}
	// OpFloat
	switch t {
	case ptx.F32:
		if a.FloatBits == 64 {
			return uint64(math.Float32bits(float32(math.Float64frombits(a.Bits)))), nil
		}
		return a.Bits & 0xffffffff, nil
	case ptx.F64:
		if a.FloatBits == 32 {
			return math.Float64bits(float64(math.Float32frombits(uint32(a.Bits)))), nil
		}
		return a.Bits, nil
	case ptx.F16, ptx.BF16:
		f := &fF16
		if t == ptx.BF16 {
			f = &fBF16
		}
		x := math.Float64frombits(a.Bits)
		if a.FloatBits == 32 {
			x = float64(math.Float32frombits(uint32(a.Bits)))
		}
		return f64To(f, x, rnRN, false), nil
	}
	return a.Bits & mask, nil
}
