package arith

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strings"
)

// MMAElem is the element type of one matrix operand of a warp-level MMA.
type MMAElem uint8

// Element types of mma.sync operands.
const (
	ElemNone MMAElem = iota
	ElemF16
	ElemBF16
	ElemTF32
	ElemF32
	ElemF64
	ElemS8
	ElemU8
	ElemS32
	ElemE4M3 // fp8 (wgmma only)
	ElemE5M2 // fp8 (wgmma only)
)

var elemNames = [...]string{"", "f16", "bf16", "tf32", "f32", "f64", "s8", "u8", "s32", "e4m3", "e5m2"}

// String is the PTX type name of the element type.
func (e MMAElem) String() string { return elemNames[e] }

// Bits is the width of one element in a register.
func (e MMAElem) Bits() int {
	switch e {
	case ElemF16, ElemBF16:
		return 16
	case ElemF64:
		return 64
	case ElemS8, ElemU8, ElemE4M3, ElemE5M2:
		return 8
	}
	return 32
}

// PerReg is how many elements one fragment register holds (f64 registers are 64-bit).
func (e MMAElem) PerReg() int {
	if e == ElemF64 {
		return 1
	}
	return 32 / e.Bits()
}

func elemByName(s string) MMAElem {
	for i, n := range elemNames {
		if i > 0 && n == s {
			return MMAElem(i)
		}
	}
	return ElemNone
}

// MMA is a decoded mma.sync.aligned shape and type combination with its
// fragment layouts (PTX ISA, "Matrix fragments for mma.m16n8k*") and the
// tensor cores' arithmetic as measured on the H200 (docs/tensor-cores.md).
type MMA struct {
	M, N, K    int
	A, B, C, D MMAElem
	Satfinite  bool
	Model      FloatModel // arithmetic of the float forms
}

// FloatModel describes how a tensor core sums products of a floating-point MMA:
// each step adds G products (in k order) to the accumulator, every term aligned to
// the largest exponent of the step and truncated F bits below it, the exact sum of
// the truncated terms rounded with StepRound. The values chosen are in DefaultModel.
type FloatModel struct {
	G          int  // products per accumulation step (0: all K at once)
	F          int  // bits kept below the largest exponent when terms are aligned
	InputExp   bool // a product's alignment exponent is Ea+Eb (not the product's own)
	StepRZ     bool // each step's sum is truncated (toward zero) to f32, else rounded to nearest even
	FTZOut     bool // f32 subnormal results are flushed to zero
	TF32RN     bool // tf32 operands are rounded to nearest (else their low 13 bits are ignored)
	F16StepF16 bool // f16 accumulators: each step's exact sum is rounded to nearest f16 directly (else truncated to f32, then rounded to f16)
	NoCInAlign bool // the accumulator is aligned separately (its exponent does not raise the step's maximum)
	F64Chain   bool // f64: a chain of fused multiply-adds in k order (else one rounding of the exact sum)
	ZeroPlus   bool // an exact zero sum is +0 whatever the signs of the zero terms
	SubRN      bool // results in the subnormal range are rounded to nearest even (else like StepRZ)
	SubExpMin  bool // with InputExp: a subnormal operand counts with the format's minimum exponent (its field), not its leading bit
}

// DefaultModel is the tensor-core arithmetic the simulator uses for every float MMA
// (fitted to the calibration cases of testdata/measured/tensor, see docs/tensor-cores.md).
func DefaultModel(a MMAElem, k int) FloatModel {
	return FloatModel{G: defaultG(a, k), F: 25, InputExp: true, SubExpMin: true, ZeroPlus: true, StepRZ: true, F16StepF16: true, F64Chain: true}
}

func defaultG(a MMAElem, k int) int { return k }

// ParseMMA decodes the modifiers of mma (without "sync", "aligned"): shape,
// layouts and types. Forms the simulator does not model are an error saying so.
func ParseMMA(mods []string) (*MMA, error) {
	m := &MMA{}
	var types []MMAElem
	var lay []string
	for _, s := range mods {
		switch {
		case s == "sync" || s == "aligned":
		case s == "row" || s == "col":
			lay = append(lay, s)
		case s == "satfinite":
			m.Satfinite = true
		case strings.HasPrefix(s, "m") && strings.Contains(s, "n") && strings.Contains(s, "k"):
			if _, err := fmt.Sscanf(s, "m%dn%dk%d", &m.M, &m.N, &m.K); err != nil {
				return nil, fmt.Errorf("bad shape .%s", s)
			}
		default:
			e := elemByName(s)
			if e == ElemNone || e == ElemE4M3 || e == ElemE5M2 {
				return nil, fmt.Errorf("modifier .%s is not modelled for mma (supported: f16, bf16, tf32, f64, s8, u8 with f16/f32/f64/s32 accumulators)", s)
			}
			types = append(types, e)
		}
	}
	if len(lay) != 2 || lay[0] != "row" || lay[1] != "col" {
		return nil, fmt.Errorf("layouts .%s: only .row.col is defined for this shape", strings.Join(lay, "."))
	}
	switch len(types) {
	case 4:
		m.D, m.A, m.B, m.C = types[0], types[1], types[2], types[3]
	case 2: // mma.sync.aligned.m16n8k16.row.col.f16.f16 d, a, b, c (dtype.ctype, f16 operands)
		m.D, m.C, m.A, m.B = types[0], types[1], ElemF16, ElemF16
	default:
		return nil, fmt.Errorf("expected .dtype.atype.btype.ctype")
	}
	if err := m.check(); err != nil {
		return nil, err
	}
	m.Model = DefaultModel(m.A, m.K)
	return m, nil
}

func (m *MMA) check() error {
	shape := fmt.Sprintf("m%dn%dk%d", m.M, m.N, m.K)
	isF := func(e MMAElem) bool { return e == ElemF16 || e == ElemF32 }
	isI := func(e MMAElem) bool { return e == ElemS8 || e == ElemU8 }
	ok := false
	switch {
	case m.A == ElemF16 && m.B == ElemF16:
		// ptxas 13 requires .dtype == .ctype for these shapes (testdata/measured/tensor/bulk_probe2_build.txt)
		ok = (shape == "m16n8k16" || shape == "m16n8k8") && isF(m.C) && m.D == m.C
	case m.A == ElemBF16 && m.B == ElemBF16:
		ok = (shape == "m16n8k16" || shape == "m16n8k8") && m.C == ElemF32 && m.D == ElemF32
	case m.A == ElemTF32 && m.B == ElemTF32:
		ok = (shape == "m16n8k8" || shape == "m16n8k4") && m.C == ElemF32 && m.D == ElemF32
	case m.A == ElemF64 && m.B == ElemF64:
		ok = shape == "m8n8k4" && m.C == ElemF64 && m.D == ElemF64
	case isI(m.A) && isI(m.B):
		ok = (shape == "m16n8k32" || shape == "m16n8k16" || shape == "m8n8k16") && m.C == ElemS32 && m.D == ElemS32
	}
	if !ok {
		return fmt.Errorf("mma.%s with .%s.%s.%s.%s is not modelled (supported: m16n8k16/m16n8k8 f16 and bf16, m16n8k8/m16n8k4 tf32, m8n8k4 f64, m16n8k32/m16n8k16/m8n8k16 s8/u8)",
			shape, m.D, m.A, m.B, m.C)
	}
	if m.Satfinite && m.D != ElemS32 {
		return fmt.Errorf(".satfinite is only defined for integer mma")
	}
	return nil
}

// Regs is the number of fragment registers of each operand per lane (f64: 64-bit registers).
func (m *MMA) Regs() (a, b, c, d int) {
	return m.M * m.K / 32 / m.A.PerReg(), m.K * m.N / 32 / m.B.PerReg(),
		m.M * m.N / 32 / m.C.PerReg(), m.M * m.N / 32 / m.D.PerReg()
}

// ALoc is the (row, col) of A held as element i of lane's A fragment.
func (m *MMA) ALoc(lane, i int) (row, col int) {
	g, t := lane>>2, lane&3
	switch m.A.Bits() {
	case 16:
		if m.K == 16 {
			return g + 8*((i>>1)&1), 2*t + i&1 + 8*(i>>2)
		}
		return g + 8*(i>>1), 2*t + i&1
	case 32: // tf32
		if m.K == 8 {
			return g + 8*(i&1), t + 4*(i>>1)
		}
		return g + 8*i, t
	case 64:
		return g, t
	}
	// 8-bit
	switch m.K {
	case 32:
		return g + 8*((i>>2)&1), 4*t + i&3 + 16*(i>>3)
	case 16:
		if m.M == 16 {
			return g + 8*(i>>2), 4*t + i&3
		}
	}
	return g, 4*t + i
}

// BLoc is the (row, col) of B (K x N) held as element i of lane's B fragment.
func (m *MMA) BLoc(lane, i int) (row, col int) {
	g, t := lane>>2, lane&3
	switch m.B.Bits() {
	case 16:
		return 2*t + i&1 + 8*(i>>1), g
	case 32:
		return t + 4*i, g
	case 64:
		return t, g
	}
	return 4*t + i&3 + 16*(i>>2), g
}

// CLoc is the (row, col) of C and D held as element i of lane's accumulator fragment.
func (m *MMA) CLoc(lane, i int) (row, col int) {
	g, t := lane>>2, lane&3
	if m.M == 8 {
		return g, 2*t + i
	}
	return g + 8*(i>>1), 2*t + i&1
}

// MaxMMA bounds the element counts of the operands (A of m16n8k32 is 16 x 32).
const MaxMMA = 16 * 32

// Compute sets d (M x N, row-major element bits) to A·B + C for a (M x K), b (K x N)
// and c (M x N), all row-major element bits of the operand types.
func (m *MMA) Compute(a, b, c, d []uint64) {
	switch m.A {
	case ElemS8, ElemU8:
		m.integer(a, b, c, d)
	case ElemF64:
		m.f64(a, b, c, d)
	default:
		// each operand element decoded once; B stored by column
		var ta, tb [16 * 16]term
		for i := 0; i < m.M*m.K; i++ {
			ta[i] = m.input(m.A, a[i])
		}
		for k := 0; k < m.K; k++ {
			for j := 0; j < m.N; j++ {
				tb[j*m.K+k] = m.input(m.B, b[k*m.N+j])
			}
		}
		for i := 0; i < m.M; i++ {
			for j := 0; j < m.N; j++ {
				d[i*m.N+j] = m.dot(ta[i*m.K:(i+1)*m.K], tb[j*m.K:(j+1)*m.K], c[i*m.N+j])
			}
		}
	}
}

func (m *MMA) integer(a, b, c, d []uint64) {
	val := func(e MMAElem, x uint64) int64 {
		if e == ElemS8 {
			return int64(int8(x))
		}
		return int64(uint8(x))
	}
	for i := 0; i < m.M; i++ {
		for j := 0; j < m.N; j++ {
			s := int64(int32(c[i*m.N+j]))
			for k := 0; k < m.K; k++ {
				s += val(m.A, a[i*m.K+k]) * val(m.B, b[k*m.N+j])
			}
			if m.Satfinite {
				s = max(min(s, math.MaxInt32), math.MinInt32)
			}
			d[i*m.N+j] = uint64(uint32(s))
		}
	}
}

func (m *MMA) f64(a, b, c, d []uint64) {
	for i := 0; i < m.M; i++ {
		for j := 0; j < m.N; j++ {
			acc := math.Float64frombits(c[i*m.N+j])
			if m.Model.F64Chain {
				accBits := c[i*m.N+j]
				for k := 0; k < m.K; k++ {
					accBits = fma64(a[i*m.K+k], b[k*m.N+j], accBits)
				}
				d[i*m.N+j] = accBits
				continue
			}
			s := new(big.Float).SetPrec(4096)
			sp := false
			if math.IsNaN(acc) || math.IsInf(acc, 0) {
				sp = true
			} else {
				s.SetFloat64(acc)
			}
			spec := acc
			for k := 0; k < m.K; k++ {
				x, y := math.Float64frombits(a[i*m.K+k]), math.Float64frombits(b[k*m.N+j])
				p := x * y
				if math.IsNaN(p) || math.IsInf(p, 0) || math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
					sp = true
					spec += x * y
					continue
				}
				var bx, by big.Float
				bx.SetPrec(4096).SetFloat64(x)
				by.SetPrec(4096).SetFloat64(y)
				bx.Mul(&bx, &by)
				s.Add(s, &bx)
			}
			if sp {
				d[i*m.N+j] = f64Canon(spec)
				continue
			}
			v, _ := s.Float64()
			d[i*m.N+j] = math.Float64bits(v)
		}
	}
}

// fma64 is one step of the f64 chain: a*b+c rounded once, a NaN operand propagated
// quieted (the first of a, b, c), an invalid operation giving 0xfff8000000000000.
func fma64(a, b, c uint64) uint64 {
	for _, x := range [3]uint64{a, b, c} {
		if x&0x7fffffffffffffff > 0x7ff0000000000000 {
			return x | 1<<51
		}
	}
	r := math.FMA(math.Float64frombits(a), math.Float64frombits(b), math.Float64frombits(c))
	if math.IsNaN(r) {
		return 0xfff8000000000000
	}
	return math.Float64bits(r)
}

func f64Canon(x float64) uint64 {
	if math.IsNaN(x) {
		return 0x7ff8000000000000 // the H200's DMMA writes this NaN for NaN operands and invalid operations
	}
	return math.Float64bits(x)
}

// term is an exact finite value (-1)^neg · m · 2^e with the exponent used for
// alignment (ax: the binary exponent of its leading bit, or Ea+Eb for products).
type term struct {
	m    uint64
	e    int
	ax   int
	fx   int // exponent field's value (1-bias for subnormals)
	neg  bool
	zero bool
	nan  bool
	inf  bool
}

// input decodes an operand element (tf32 operands lose their low 13 bits or are rounded).
func (m *MMA) input(t MMAElem, x uint64) term {
	switch t {
	case ElemF16:
		return decodeTerm(&fF16, x)
	case ElemBF16:
		return decodeTerm(&fBF16, x)
	case ElemE4M3:
		if x&0x7f == 0x7f {
			return term{nan: true}
		}
		return decodeTerm(&fE4M3fin, x) // no Inf: exponent 15 is a normal binade
	case ElemE5M2:
		return decodeTerm(&fE5M2, x)
	case ElemTF32:
		x &= 0xffffffff
		if !m.Model.TF32RN || isNaNBits(&fF32, x) {
			if isNaNBits(&fF32, x) {
				return term{nan: true}
			}
			return decodeTerm(&fF32, x&^0x1fff)
		}
		return decodeTerm(&fF32, tf32Layout(roundInt(&fTF32, x>>31 != 0, decodeMant(x), decodeExp(x), 0, rnRN, false)))
	}
	return decodeTerm(&fF32, x)
}

func decodeMant(x uint64) uint64 {
	e := (x >> 23) & 0xff
	if e == 0 {
		return x & 0x7fffff
	}
	return x&0x7fffff | 1<<23
}

func decodeExp(x uint64) int {
	e := int((x >> 23) & 0xff)
	if e == 0 {
		e = 1
	}
	return e - 127 - 23
}

// decodeTerm decodes bits of a format into a term.
func decodeTerm(f *fmtSpec, x uint64) term {
	x &= mask(f.width)
	neg := x&f.signBit() != 0
	mag := x &^ f.signBit()
	be := int(mag >> f.mant)
	mm := mag & (1<<f.mant - 1)
	switch {
	case be == int(f.expMask) && mm == 0:
		return term{inf: true, neg: neg}
	case be == int(f.expMask):
		return term{nan: true}
	case mag == 0:
		return term{zero: true, neg: neg}
	}
	e := be
	if be == 0 {
		e = 1
	} else {
		mm |= 1 << f.mant
	}
	t := term{m: mm, e: e - f.bias - int(f.mant), neg: neg}
	t.ax = t.e + 63 - bits.LeadingZeros64(t.m)
	t.fx = t.ax
	if be == 0 {
		t.fx = 1 - f.bias
	}
	return t
}

// mul is the exact product of two finite non-zero terms.
func mul(x, y term, md *FloatModel) term {
	p := term{m: x.m * y.m, e: x.e + y.e, neg: x.neg != y.neg}
	p.ax = p.e + 63 - bits.LeadingZeros64(p.m)
	if md.InputExp {
		p.ax = x.ax + y.ax
		if md.SubExpMin {
			p.ax = x.fx + y.fx
		}
	}
	p.fx = p.ax
	return p
}

// dot computes c + sum a[k]*b[k] the way the tensor core does (FloatModel).
func (m *MMA) dot(a, b []term, cBits uint64) uint64 {
	md := &m.Model
	var acc term
	if m.C == ElemF16 {
		acc = decodeTerm(&fF16, cBits)
	} else {
		acc = decodeTerm(&fF32, cBits)
	}
	// Special values: any NaN, Inf·0 or Inf-Inf gives NaN; otherwise an Inf wins.
	nan, pinf, ninf := acc.nan, acc.inf && !acc.neg, acc.inf && acc.neg
	for k := range a {
		x, y := a[k], b[k]
		switch {
		case x.nan || y.nan:
			nan = true
		case (x.inf && y.zero) || (x.zero && y.inf):
			nan = true
		case x.inf || y.inf:
			if x.neg != y.neg {
				ninf = true
			} else {
				pinf = true
			}
		}
	}
	out := &fF32
	if m.D == ElemF16 {
		out = &fF16
	}
	if nan || (pinf && ninf) {
		return out.nan
	}
	if pinf || ninf {
		if ninf {
			return out.signBit() | out.inf
		}
		return out.inf
	}
	g := md.G
	if g <= 0 || g > len(a) {
		g = len(a)
	}
	stepFmt := &fF32
	if m.D == ElemF16 && md.F16StepF16 {
		stepFmt = &fF16
	}
	var terms [33]term // the accumulator and at most 32 products (float K <= 32: wgmma fp8)
	var bitsOut uint64
	for k0 := 0; k0 < len(a); k0 += g {
		n := 0
		terms[n] = acc
		n++
		for k := k0; k < k0+g && k < len(a); k++ {
			if a[k].zero || b[k].zero {
				terms[n] = term{zero: true, neg: a[k].neg != b[k].neg}
			} else {
				terms[n] = mul(a[k], b[k], md)
			}
			n++
		}
		bitsOut = sumTerms(terms[:n], md, stepFmt, stepFmt == &fF16)
		acc = decodeTerm(stepFmt, bitsOut)
	}
	if out != stepFmt {
		// f16 accumulator computed in f32: one final rounding to nearest.
		v := decodeSmall(&fF32, bitsOut)
		h := f64To(&fF16, v, rnRN, false)
		if md.ZeroPlus && h == fF16.signBit() && bitsOut != fF32.signBit() {
			h = 0
		}
		return h
	}
	return bitsOut
}

// sumTerms adds finite terms as one step of the tensor core and rounds to f.
func sumTerms(ts []term, md *FloatModel, f *fmtSpec, rn bool) uint64 {
	emax := math.MinInt
	allNegZero := true
	for i, t := range ts {
		if t.zero {
			allNegZero = allNegZero && t.neg
			continue
		}
		allNegZero = false
		if i == 0 && md.NoCInAlign {
			continue
		}
		if md.SubExpMin {
			emax = max(emax, t.fx)
		} else {
			emax = max(emax, t.ax)
		}
	}
	if emax == math.MinInt {
		if ts[0].zero {
			if allNegZero && !md.ZeroPlus {
				return f.signBit()
			}
			return 0
		}
		emax = ts[0].ax
	}
	q := emax - md.F // exponent of one unit of the aligned sum
	var s int64
	for _, t := range ts {
		if t.zero {
			continue
		}
		sh := t.e - q
		var v uint64
		switch {
		case sh >= 0:
			v = t.m << uint(sh)
		case sh > -64:
			v = t.m >> uint(-sh)
		}
		if t.neg {
			s -= int64(v)
		} else {
			s += int64(v)
		}
	}
	if s == 0 {
		if allNegZero && !md.ZeroPlus {
			return f.signBit()
		}
		return 0
	}
	neg := s < 0
	mag := uint64(s)
	if neg {
		mag = uint64(-s)
	}
	r := rnRN
	if md.StepRZ && !rn {
		r = rnRZ
	}
	if md.SubRN && bits.Len64(mag)+q <= 1-f.bias {
		r = rnRN
	}
	out := roundInt(f, neg, mag, q, 0, r, false)
	if md.ZeroPlus && out == f.signBit() {
		out = 0 // a non-zero sum that rounds to zero is +0
	}
	if md.FTZOut && isSubBits(f, out) {
		return out & f.signBit()
	}
	return out
}
