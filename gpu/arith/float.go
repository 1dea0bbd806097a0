package arith

import (
	"math"

	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// decodeSmall converts bits of a narrow format (f16, bf16, e4m3, e5m2, f32, tf32) to float64 exactly.
func decodeSmall(f *fmtSpec, x uint64) float64 {
	neg := x&f.signBit() != 0
	mag := x &^ f.signBit() & mask(f.width)
	e := int(mag >> f.mant)
	m := mag & (1<<f.mant - 1)
	var v float64
	switch {
	case f.inf != 0 && e == int(f.expMask) && m == 0:
		v = math.Inf(1)
	case (f.inf != 0 && e == int(f.expMask)) || (f.inf == 0 && mag == f.nan&^f.signBit()):
		return math.NaN()
	case e == 0:
		v = math.Ldexp(float64(m), 1-f.bias-int(f.mant))
	default:
		v = math.Ldexp(float64(m|1<<f.mant), e-f.bias-int(f.mant))
	}
	if neg {
		v = -v
	}
	return v
}

// isNaNBits reports whether x is a NaN in format f.
func isNaNBits(f *fmtSpec, x uint64) bool {
	mag := x &^ f.signBit() & mask(f.width)
	if f.inf == 0 {
		return mag == f.nan&^f.signBit()
	}
	return mag > f.inf
}

// isSubBits reports whether x is a subnormal in format f.
func isSubBits(f *fmtSpec, x uint64) bool {
	mag := x &^ f.signBit() & mask(f.width)
	return mag != 0 && mag>>f.mant == 0
}

// f64To rounds a float64 (any value) to format f.
func f64To(f *fmtSpec, x float64, r rnd, satfin bool) uint64 {
	switch {
	case math.IsNaN(x):
		return f.nan
	case math.IsInf(x, 0):
		var s uint64
		if x < 0 {
			s = f.signBit()
		}
		if satfin {
			return s | f.maxFin
		}
		if f.inf == 0 {
			return f.nan
		}
		return s | f.inf
	}
	if f == &fF64 {
		return math.Float64bits(x)
	}
	return roundF64(f, x, 0, r, satfin)
}

// twoSum returns s = fl(a+b) and the exact error e (a+b = s+e).
func twoSum(a, b float64) (s, e float64) {
	s = a + b
	bb := s - a
	e = (a - (s - bb)) + (b - bb)
	return s, e
}

// exactSmall computes a basic operation on values of a narrow format (at most
// 24 significant bits, exponents within the f32 range) exactly as hi+lo.
// special is set when the result is NaN, infinite or an exact zero, in which
// case hi is the final value (with the zero's sign for rounding mode r).
func exactSmall(k kind, x, y, z float64, r rnd) (hi, lo float64, special bool) {
	switch k {
	case kFAdd, kFSub:
		if k == kFSub {
			y = -y
		}
		if math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
			return x + y, 0, true
		}
		hi, lo = twoSum(x, y)
		if hi == 0 && lo == 0 {
			return zeroSum(x, y, r), 0, true
		}
		return hi, lo, false
	case kFMul:
		hi = x * y
		return hi, 0, math.IsNaN(hi) || math.IsInf(hi, 0) || hi == 0
	case kFFma:
		p := x * y
		if math.IsNaN(p) || math.IsInf(p, 0) || math.IsNaN(z) || math.IsInf(z, 0) {
			return p + z, 0, true
		}
		hi, lo = twoSum(p, z)
		if hi == 0 && lo == 0 {
			return zeroSum(p, z, r), 0, true
		}
		return hi, lo, false
	case kFDiv, kFRcp:
		if k == kFRcp {
			x, y = 1, x
		}
		hi = x / y
		if math.IsNaN(hi) || math.IsInf(hi, 0) || hi == 0 {
			return hi, 0, true
		}
		rem := math.FMA(-hi, y, x) // exact: x - hi*y
		if rem == 0 {
			return hi, 0, false
		}
		if (rem > 0) == (y > 0) {
			return hi, math.SmallestNonzeroFloat64, false
		}
		return hi, -math.SmallestNonzeroFloat64, false
	case kFSqrt:
		hi = math.Sqrt(x)
		if math.IsNaN(hi) || math.IsInf(hi, 0) || hi == 0 {
			return hi, 0, true
		}
		rem := math.FMA(-hi, hi, x)
		switch {
		case rem > 0:
			return hi, math.SmallestNonzeroFloat64, false
		case rem < 0:
			return hi, -math.SmallestNonzeroFloat64, false
		}
		return hi, 0, false
	}
	return math.NaN(), 0, true
}

// zeroSum is the sign of an exact zero sum a+b under mode r (IEEE 754 6.3).
func zeroSum(a, b float64, r rnd) float64 {
	if a == 0 && b == 0 && math.Signbit(a) == math.Signbit(b) {
		return a
	}
	if r == rnRM {
		return math.Copysign(0, -1)
	}
	return 0
}

// roundRes rounds an exactSmall result to format f.
func roundRes(f *fmtSpec, hi, lo float64, special bool, r rnd, satfin bool) uint64 {
	if special {
		return f64To(f, hi, r, satfin)
	}
	if r == rnNone {
		r = rnRN
	}
	return roundF64(f, hi, lo, r, satfin)
}

func (o *Op) evalFloat(src *[4]uint64) uint64 {
	switch o.t {
	case ptx.F32:
		return uint64(o.f32(uint32(src[0]), uint32(src[1]), uint32(src[2])))
	case ptx.F64:
		return o.f64(src[0], src[1], src[2])
	case ptx.F16:
		return o.half(&fF16, src[0]&0xffff, src[1]&0xffff, src[2]&0xffff)
	case ptx.BF16:
		return o.half(&fBF16, src[0]&0xffff, src[1]&0xffff, src[2]&0xffff)
	case ptx.F16x2, ptx.BF16x2:
		f := &fF16
		if o.t == ptx.BF16x2 {
			f = &fBF16
		}
		lo := o.half(f, src[0]&0xffff, src[1]&0xffff, src[2]&0xffff)
		hi := o.half(f, src[0]>>16&0xffff, src[1]>>16&0xffff, src[2]>>16&0xffff)
		return hi<<16 | lo
	}
	return 0
}

const (
	nan32 = 0x7fffffff
	sgn32 = 0x80000000
	one32 = 0x3f800000
)

func ftz32(x uint32) uint32 {
	if x&0x7f800000 == 0 {
		return x & sgn32
	}
	return x
}

func isNaN32(x uint32) bool { return x&0x7fffffff > 0x7f800000 }

// post32 applies canonical NaN, .ftz and .sat to an f32 result.
func (o *Op) post32(r uint32) uint32 {
	if isNaN32(r) {
		if o.sat {
			return 0
		}
		return nan32
	}
	if o.ftz {
		r = ftz32(r)
	}
	if o.sat {
		if r&sgn32 != 0 {
			return 0
		}
		if r > one32 {
			return one32
		}
	}
	return r
}

func (o *Op) f32(a, b, c uint32) uint32 {
	switch o.kind {
	case kFAbs:
		if o.ftz {
			a = ftz32(a)
		}
		if isNaN32(a) {
			return nan32
		}
		return a &^ sgn32
	case kFNeg:
		if o.ftz {
			a = ftz32(a)
		}
		if isNaN32(a) {
			return nan32
		}
		return a ^ sgn32
	case kCopysign:
		return b&^sgn32 | a&sgn32
	case kTestp:
		return uint32(testp(o.imm, &fF32, uint64(a)))
	}
	if o.ftz {
		a, b, c = ftz32(a), ftz32(b), ftz32(c)
	}
	fa, fb := math.Float32frombits(a), math.Float32frombits(b)
	switch o.kind {
	case kFMin, kFMax:
		return o.post32(uint32(o.minMax(&fF32, uint64(a), uint64(b), uint64(c))))
	case kFAdd, kFSub, kFMul:
		if o.rnd == rnNone || o.rnd == rnRN {
			var r float32
			switch o.kind {
			case kFAdd:
				r = fa + fb
			case kFSub:
				r = fa - fb
			default:
				r = fa * fb
			}
			if rb := math.Float32bits(r); !o.ftz || rb&^sgn32 != minNormal32 {
				return o.post32(rb)
			}
		}
	case kFDiv:
		if o.approx {
			return o.post32(o.mufuSeq32(a, b))
		}
		if rb := math.Float32bits(fa / fb); o.rnd == rnRN && (!o.ftz || rb&^sgn32 != minNormal32) {
			return o.post32(rb)
		}
	case kFRcp, kFSqrt, kFRsqrt, kFSin, kFCos, kFLg2, kFEx2, kFTanh:
		if o.approx {
			return o.post32(o.mufuSeq32(a, b))
		}
	}
	hi, lo, sp := exactSmall(o.kind, float64(fa), float64(fb), float64(math.Float32frombits(c)), o.rnd)
	r := uint32(roundRes(&fF32, hi, lo, sp, o.rnd, false))
	if o.ftz && r&^sgn32 == minNormal32 && !sp && tinyAfter24(hi, lo, o.rnd) {
		return r & sgn32
	}
	return o.post32(r)
}

// minNormal32 is the magnitude bits of the smallest normal f32, 2^-126.
const minNormal32 = 0x00800000

// tinyAfter24 reports whether the exact value hi+lo (0 < |hi+lo| near 2^-126)
// rounded in mode r to 24 significant bits with an unbounded exponent lies
// below 2^-126. That is how .ftz decides on the H200: an exact result just
// below 2^-126 that the subnormal grid would round up to 2^-126 is flushed to
// zero unless 24-bit rounding also reaches 2^-126 (measured with fma, cvt
// and div near 2^-126: testdata/measured/mufu/ftz_cases.txt).
func tinyAfter24(hi, lo float64, r rnd) bool { return tinyAfter(&fF32, hi, lo, r) }

// tinyAfter is tinyAfter24 for format f (f16 measured the same way: fma.rn.ftz.f16
// near 2^-14, testdata/measured/mufu/ftz2_cases.txt.gz).
func tinyAfter(f *fmtSpec, hi, lo float64, r rnd) bool {
	// Scaling by 2^(bias-1) is exact and moves the smallest normal to 1, where
	// the grid of f just below 1 has the format's full precision.
	s := math.Ldexp(1, int(f.bias)-1)
	v := roundF64(f, hi*s, lo*s, r, false)
	return v&^f.signBit() < uint64(f.bias)<<f.mant
}

// minMax implements min/max as the manual's pseudocode defines it: .abs
// compares magnitudes, .xorsign then gives the result the XOR of the input
// signs (unless it is NaN), and a third input (nsrc 3) is folded in last.
func (o *Op) minMax(f *fmtSpec, a, b, c uint64) uint64 {
	sb := f.signBit()
	sign := (a ^ b) & sb
	if o.absMM {
		a, b, c = a&^sb, b&^sb, c&^sb
	}
	isMax := o.kind == kFMax
	d := minMax2(f, a, b, isMax, o.nan)
	if o.nsrc == 3 {
		d = minMax2(f, d, c, isMax, o.nan)
	}
	if o.xorsign && !isNaNBits(f, d) {
		d = d&^sb | sign
	}
	return d
}

// minMax2 is the two-input min/max with PTX NaN rules (-0 orders below +0).
func minMax2(f *fmtSpec, a, b uint64, isMax, nanMode bool) uint64 {
	an, bn := isNaNBits(f, a), isNaNBits(f, b)
	if an || bn {
		if nanMode || (an && bn) {
			return f.nan
		}
		if an {
			return b
		}
		return a
	}
	x, y := decodeSmallOrWide(f, a), decodeSmallOrWide(f, b)
	var pickA bool
	switch {
	case x < y:
		pickA = !isMax
	case x > y:
		pickA = isMax
	default: // equal, possibly zeros of different sign
		aNeg := a&f.signBit() != 0
		pickA = aNeg != isMax
	}
	if pickA {
		return a
	}
	return b
}

func decodeSmallOrWide(f *fmtSpec, x uint64) float64 {
	if f == &fF64 {
		return math.Float64frombits(x)
	}
	return decodeSmall(f, x)
}

// testp evaluates a testp class on x in format f.
func testp(class uint32, f *fmtSpec, x uint64) uint64 {
	mag := x &^ f.signBit()
	nan := mag > f.inf
	inf := mag == f.inf
	switch class {
	case 1:
		return b2u(!nan && !inf)
	case 2:
		return b2u(inf)
	case 3:
		return b2u(!nan)
	case 4:
		return b2u(nan)
	case 5: // the manual counts zeros as normal
		return b2u(!nan && !inf && (mag == 0 || mag>>f.mant != 0))
	case 6:
		return b2u(mag != 0 && mag>>f.mant == 0)
	}
	return 0
}

// f64 NaN results as the H200 gives them: a NaN operand propagates quieted
// (sign and payload kept, first NaN operand in a, b, c order); a NaN created
// by an invalid operation is nanGen64.
const (
	quiet64  = 1 << 51
	nanGen64 = 0xfff8000000000000
)

// nan64 returns the propagated NaN of the operands, or nanGen64.
func nan64(n int, xs ...uint64) uint64 {
	for i, x := range xs {
		if i < n && x&0x7fffffffffffffff > 0x7ff0000000000000 {
			return x | quiet64
		}
	}
	return nanGen64
}

func (o *Op) f64(a, b, c uint64) uint64 {
	const sgn = 1 << 63
	x, y, z := math.Float64frombits(a), math.Float64frombits(b), math.Float64frombits(c)
	var r float64
	switch o.kind {
	case kFAbs:
		if math.IsNaN(x) {
			return a | quiet64
		}
		return a &^ sgn
	case kFNeg:
		if math.IsNaN(x) {
			return a | quiet64
		}
		return a ^ sgn
	case kCopysign:
		return b&^sgn | a&sgn
	case kTestp:
		return testp(o.imm, &fF64, a)
	case kFMin, kFMax:
		return o.minMax(&fF64, a, b, c)
	}
	if o.approx && o.ftz {
		return mufu64H(o.kind == kFRsqrt, a) // rcp/rsqrt.approx.ftz.f64 (mufu_rcp.go)
	}
	if o.approx && o.kind == kFRsqrt {
		return rsqrtApprox64(a)
	}
	var res uint64
	if o.approx || (o.rnd == rnNone || o.rnd == rnRN) {
		switch o.kind {
		case kFAdd:
			r = x + y
		case kFSub:
			r = x - y
		case kFMul:
			r = x * y
		case kFFma:
			r = math.FMA(x, y, z)
		case kFDiv:
			r = x / y
		case kFRcp:
			r = 1 / x
		case kFSqrt:
			r = math.Sqrt(x)
		case kFRsqrt:
			r = 1 / math.Sqrt(x)
		case kFEx2:
			r = math.Exp2(x)
		default:
			r = math.NaN()
		}
		if o.approx && o.ftz && r != 0 && math.Abs(r) < 0x1p-1022 {
			r = math.Copysign(0, r)
		}
		res = math.Float64bits(r)
	} else {
		res = bigOp64(o.kind, x, y, z, o.rnd)
	}
	if res&0x7fffffffffffffff > 0x7ff0000000000000 {
		return nan64(o.nsrc, a, b, c)
	}
	return res
}

// half evaluates an f16 or bf16 operation on one half.
func (o *Op) half(f *fmtSpec, a, b, c uint64) uint64 {
	sb := f.signBit()
	if o.ftz {
		if isSubBits(f, a) {
			a &= sb
		}
		if isSubBits(f, b) {
			b &= sb
		}
		if isSubBits(f, c) {
			c &= sb
		}
	}
	var r uint64
	switch o.kind {
	case kFAbs:
		if isNaNBits(f, a) {
			return f.nan
		}
		return a &^ sb
	case kFNeg:
		if isNaNBits(f, a) {
			return f.nan
		}
		return a ^ sb
	case kFMin, kFMax:
		r = o.minMax(f, a, b, c)
	case kFEx2, kFTanh:
		op := muEx2
		if o.kind == kFTanh {
			op = muTanh
		}
		r = mufu16(f, op, a)
	default:
		hi, lo, sp := exactSmall(o.kind, decodeSmall(f, a), decodeSmall(f, b), decodeSmall(f, c), o.rnd)
		r = roundRes(f, hi, lo, sp, o.rnd, false)
		if o.ftz && r&^sb == 1<<f.mant && !sp && tinyAfter(f, hi, lo, o.rnd) {
			return r & sb
		}
	}
	return o.postHalf(f, r)
}

// postHalf applies canonical NaN, .ftz, .sat and .relu to a half result.
func (o *Op) postHalf(f *fmtSpec, r uint64) uint64 {
	sb := f.signBit()
	if isNaNBits(f, r) {
		if o.sat {
			return 0
		}
		return f.nan
	}
	if o.ftz && isSubBits(f, r) {
		r &= sb
	}
	if (o.relu || o.sat) && r&sb != 0 {
		return 0
	}
	if o.sat {
		one := uint64(f.bias) << f.mant
		if r > one {
			return one
		}
	}
	return r
}
