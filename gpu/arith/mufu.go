package arith

import "math"

// The H200 computes every .approx f32 function (and div.approx/div.full) with
// one MUFU instruction and, for the forms without .ftz, a few FMULs that scale
// subnormal or huge operands into the unit's range. The sequences below are the
// SASS ptxas 13.0 emits for sm_90 (testdata/measured/mufu/probe.sass.gz); the
// unit itself (mufu32) flushes subnormal inputs and results to zero of the
// same sign (MUFU.TANH excepted) and returns the canonical NaN. MUFU.EX2,
// LG2, SIN, COS and TANH follow the unit's recovered interpolator
// (mufu_exp.go, mufu_tanh.go), RCP, RSQ and SQRT theirs (mufu_rcp.go): all
// bit-exact on every input (docs/special-functions.md).

// MUFU operations.
const (
	muRcp = iota
	muRsq
	muSqrt
	muEx2
	muLg2
	muSin
	muCos
	muTanh
)

// invTwoPi32 is the FMUL.RZ constant ptxas multiplies sin/cos arguments by (0.15915494f).
const invTwoPi32 = 0x3e22f983

// mufu32 is one MUFU instruction on f32 bits.
func mufu32(op int, xb uint32) uint32 {
	if op == muTanh && xb&0x7f800000 == 0 {
		return xb // MUFU.TANH keeps subnormals: tanh(x) = x (measured)
	}
	xb = ftz32(xb)
	if isNaN32(xb) {
		return nan32
	}
	x := float64(math.Float32frombits(xb))
	neg := xb&sgn32 != 0
	var v float64
	switch op {
	case muRcp:
		if isNormal32(xb) {
			return mufuRcpInterp(xb) // the unit's interpolation (mufu_rcp.go)
		}
		v = 1 / x // ±0 -> ±Inf, ±Inf -> ±0
	case muRsq:
		if neg && x != 0 {
			return nan32
		}
		if isNormal32(xb) {
			return mufuRsqInterp(xb)
		}
		v = 1 / math.Sqrt(x) // -0 -> -Inf
	case muSqrt:
		if isNormal32(xb) && !neg {
			return mufuSqrtInterp(xb)
		}
		if neg && x != 0 {
			return nan32
		}
		v = math.Sqrt(x)
	case muEx2:
		return mufuEx2(xb) // mufu_exp.go
	case muLg2:
		return mufuLg2(xb) // mufu_exp.go
	case muSin, muCos:
		return mufuSinCos(op == muCos, xb) // mufu_exp.go
	case muTanh:
		return mufuTanh(xb) // mufu_tanh.go
	}
	return ftz32(math.Float32bits(float32(v)))
}

// fmul32 is FMUL (RN) on f32 bits; ftz flushes inputs and the result (tinyAfter24).
func fmul32(a, b uint32, ftz bool) uint32 {
	if ftz {
		a, b = ftz32(a), ftz32(b)
	}
	p := math.Float32bits(math.Float32frombits(a) * math.Float32frombits(b))
	if ftz {
		if p&^sgn32 == minNormal32 && tinyAfter24(float64(math.Float32frombits(a))*float64(math.Float32frombits(b)), 0, rnRN) {
			return p & sgn32
		}
		p = ftz32(p)
	}
	return p
}

// fmulRZ32 is FMUL.RZ (no .FTZ) on f32 bits.
func fmulRZ32(a, b uint32) uint32 {
	p := float64(math.Float32frombits(a)) * float64(math.Float32frombits(b)) // exact
	if math.IsNaN(p) {
		return nan32
	}
	return uint32(f64To(&fF32, p, rnRZ, false))
}

// absLess32 reports |x| < 2^-126 (FSETP.GEU negated: false for NaN).
func absLess32(x uint32) bool { return x&^sgn32 < minNormal32 }

// mufuSeq32 evaluates an f32 .approx/.full instruction as the H200's SASS does.
func (o *Op) mufuSeq32(a, b uint32) uint32 {
	const two24, two12, twoM12 = 0x4b800000, 0x45800000, 0x39800000
	switch o.kind {
	case kFDiv:
		if o.sub == 1 { // div.full
			if o.ftz {
				if b&^sgn32 > 0x7e800000 && !isNaN32(b) { // |b| > 2^126
					b, a = fmul32(b, 0x3e800000, true), fmul32(a, 0x3e800000, true)
				}
				return fmul32(mufu32(muRcp, b), a, true)
			}
			if b&^sgn32 > 0x7e800000 && !isNaN32(b) {
				b, a = fmul32(b, 0x3e800000, false), fmul32(a, 0x3e800000, false)
			}
			if absLess32(b) {
				b, a = fmul32(b, two24, false), fmul32(a, two24, false)
			}
			return fmul32(mufu32(muRcp, b), a, false)
		}
		if o.ftz {
			return fmul32(a, mufu32(muRcp, b), true)
		}
		if absLess32(b) {
			b, a = fmul32(b, two24, false), fmul32(a, two24, false)
		}
		return fmul32(mufu32(muRcp, b), a, false)
	case kFRcp:
		if o.ftz {
			return mufu32(muRcp, a)
		}
		s := uint32(one32)
		if absLess32(a) {
			s = two24
		}
		if a&^sgn32 > 0x7e800000 && !isNaN32(a) {
			s = 0x3e800000 // 0.25
		}
		return fmul32(s, mufu32(muRcp, fmul32(a, s, false)), false)
	case kFRsqrt, kFSqrt, kFLg2:
		op := map3(o.kind)
		if o.ftz || !absLess32(a) {
			return mufu32(op, a)
		}
		r := mufu32(op, fmul32(a, two24, false))
		switch o.kind {
		case kFRsqrt:
			return fmul32(r, two12, false)
		case kFSqrt:
			return fmul32(r, twoM12, false)
		}
		return math.Float32bits(math.Float32frombits(r) - 24)
	case kFEx2:
		if o.ftz || !(math.Float32frombits(a) < -126) {
			return mufu32(muEx2, a)
		}
		r := mufu32(muEx2, fmul32(a, 0x3f000000, false))
		return fmul32(r, r, false)
	case kFSin:
		return mufu32(muSin, fmulRZ32(a, invTwoPi32))
	case kFCos:
		return mufu32(muCos, fmulRZ32(a, invTwoPi32))
	case kFTanh:
		return mufu32(muTanh, a)
	}
	return nan32
}

func map3(k kind) int {
	switch k {
	case kFRsqrt:
		return muRsq
	case kFSqrt:
		return muSqrt
	}
	return muLg2
}

// mufu16 is MUFU.EX2/TANH.F16 and .BF16: the f32 unit on the widened input,
// its result truncated toward zero to f (f16: a result of 2^16 or more in
// magnitude overflows to Inf). Measured: this reproduces all 65536 outputs of
// ex2.approx.f16, ex2.approx.ftz.bf16, tanh.approx.f16 and tanh.approx.bf16
// from the H200's own f32 results (testdata/measured/mufu/tab16.bin.gz).
func mufu16(f *fmtSpec, op int, x uint64) uint64 {
	var w uint32
	if f == &fBF16 {
		w = uint32(x) << 16
	} else {
		w = math.Float32bits(float32(decodeSmall(f, x)))
	}
	return trunc32To16(f, mufu32(op, w))
}

// trunc32To16 converts f32 bits to f (f16 or bf16) rounding toward zero, as
// the 16-bit MUFU forms do; f16 overflows to Inf from 2^16 up.
func trunc32To16(f *fmtSpec, r uint32) uint64 {
	if isNaN32(r) {
		return f.nan
	}
	if f == &fBF16 {
		return uint64(r >> 16)
	}
	v := float64(math.Float32frombits(r))
	if math.Abs(v) >= 0x1p16 {
		return uint64(r>>16&0x8000) | f.inf
	}
	return f64To(f, v, rnRZ, false)
}
