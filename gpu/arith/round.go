package arith

import (
	"math"
	"math/big"
	"math/bits"
)

// rnd is a PTX rounding modifier.
type rnd uint8

const (
	rnNone rnd = iota // no modifier given
	rnRN              // to nearest, ties to even
	rnRZ              // toward zero
	rnRM              // toward -Inf
	rnRP              // toward +Inf
	rnRNA             // to nearest, ties away from zero (cvt.rna.tf32)
	rnRS              // stochastic (unsupported)
)

// fmtSpec describes a binary floating-point storage format.
type fmtSpec struct {
	mant    uint   // explicit mantissa bits
	bias    int    // exponent bias
	expMask uint64 // exponent field all ones
	maxFin  uint64 // magnitude bits of the largest finite value
	inf     uint64 // magnitude bits of Inf (0 when the format has none)
	nan     uint64 // canonical NaN bits written by the hardware
	width   uint   // total bits
}

// The formats the instructions use.
var (
	fF64  = fmtSpec{mant: 52, bias: 1023, expMask: 0x7ff, maxFin: 0x7fefffffffffffff, inf: 0x7ff0000000000000, nan: 0x7fffffffffffffff, width: 64}
	fF32  = fmtSpec{mant: 23, bias: 127, expMask: 0xff, maxFin: 0x7f7fffff, inf: 0x7f800000, nan: 0x7fffffff, width: 32}
	fF16  = fmtSpec{mant: 10, bias: 15, expMask: 0x1f, maxFin: 0x7bff, inf: 0x7c00, nan: 0x7fff, width: 16}
	fBF16 = fmtSpec{mant: 7, bias: 127, expMask: 0xff, maxFin: 0x7f7f, inf: 0x7f80, nan: 0x7fff, width: 16}
	// tf32 is rounded in this compact form (exponent<<10 | mantissa) and
	// widened to the f32 layout (low 13 bits zero) by tf32Layout.
	fTF32 = fmtSpec{mant: 10, bias: 127, expMask: 0xff, maxFin: 0x3fbff, inf: 0x3fc00, nan: 0x3ffff, width: 32}
	fE4M3 = fmtSpec{mant: 3, bias: 7, expMask: 0xf, maxFin: 0x7e, inf: 0, nan: 0x7f, width: 8}
	fE5M2 = fmtSpec{mant: 2, bias: 15, expMask: 0x1f, maxFin: 0x7b, inf: 0x7c, nan: 0x7f, width: 8}
)

// signBit is the sign bit of the format.
func (f *fmtSpec) signBit() uint64 { return 1 << (f.width - 1) }

// roundInt rounds the magnitude m·2^e (plus a residual smaller than 2^e whose
// sign relative to the magnitude is sticky: -1, 0 or +1) to format f with mode r.
// neg is the sign of the value. satfinite clamps overflow to the largest finite
// value (and to NaN only when the input was NaN, which callers handle).
func roundInt(f *fmtSpec, neg bool, m uint64, e int, sticky int, r rnd, satfinite bool) uint64 {
	var sign uint64
	if neg {
		sign = f.signBit()
	}
	if m == 0 {
		if sticky == 0 {
			return sign
		}
		// A value below the smallest representable magnitude; normalise it as 1·2^(e-64).
		m, e = 1, e-64
	}
	// Normalise m to have its top bit at position 63.
	lz := bits.LeadingZeros64(m)
	m <<= uint(lz)
	e -= lz
	// value = m · 2^e, m in [2^63, 2^64); binary exponent of the value:
	vexp := e + 63
	emin := 1 - f.bias
	qexp := vexp
	if qexp < emin {
		qexp = emin
	}
	qexp -= int(f.mant) // exponent of one unit in the last place
	shift := qexp - e   // how many low bits of m fall below the quantum
	var n, rem, half uint64
	var remHalf int // -1 below half, 0 exactly half, +1 above half (before sticky)
	exact := false
	switch {
	case shift <= 0:
		// Cannot happen for narrower targets (m has 64 bits, targets at most 53).
		n = m << uint(-shift)
		exact = true
	case shift >= 64:
		n = 0
		if shift == 64 {
			half = 1 << 63
			switch {
			case m > half:
				remHalf = 1
			case m == half:
				remHalf = 0
			default:
				remHalf = -1
			}
		} else {
			remHalf = -1
		}
	default:
		n = m >> uint(shift)
		rem = m & (1<<uint(shift) - 1)
		half = 1 << uint(shift-1)
		switch {
		case rem == 0:
			exact = true
		case rem > half:
			remHalf = 1
		case rem == half:
			remHalf = 0
		default:
			remHalf = -1
		}
	}
	// class: 0 exact, 1 below half, 2 half, 3 above half, relative to n.
	class := 0
	switch {
	case exact && sticky == 0:
		class = 0
	case exact && sticky > 0:
		class = 1
	case exact && sticky < 0:
		// Just below n·2^qexp. At a power of two of a normal value the
		// spacing below is half as large.
		if n == 1<<f.mant && vexp > emin {
			n = 2<<f.mant - 1
			qexp--
		} else {
			n--
		}
		class = 3
	case remHalf < 0:
		class = 1
	case remHalf > 0:
		class = 3
	case sticky > 0:
		class = 3
	case sticky < 0:
		class = 1
	default:
		class = 2
	}
	up := false
	switch r {
	case rnRZ:
	case rnRM:
		up = class != 0 && neg
	case rnRP:
		up = class != 0 && !neg
	case rnRNA:
		up = class >= 2
	default: // RN
		up = class == 3 || (class == 2 && n&1 == 1)
	}
	if up {
		n++
	}
	var mag uint64
	if n < 1<<f.mant {
		mag = n // subnormal or zero (qexp == emin - mant)
	} else {
		for n >= 2<<f.mant {
			n >>= 1
			qexp++
		}
		bexp := qexp + int(f.mant) + f.bias
		if bexp >= int(f.expMask)+1 || bexp < 0 {
			return sign | overflowMag(f, neg, r, satfinite)
		}
		mag = uint64(bexp)<<f.mant | (n - 1<<f.mant)
	}
	if mag > f.maxFin {
		return sign | overflowMag(f, neg, r, satfinite)
	}
	return sign | mag
}

// overflowMag is the magnitude written for a finite value too large for f.
func overflowMag(f *fmtSpec, neg bool, r rnd, satfinite bool) uint64 {
	if satfinite {
		return f.maxFin
	}
	if f.inf == 0 {
		return f.nan &^ f.signBit()
	}
	switch r {
	case rnRZ:
		return f.maxFin
	case rnRM:
		if !neg {
			return f.maxFin
		}
	case rnRP:
		if neg {
			return f.maxFin
		}
	}
	return f.inf
}

// roundF64 rounds x+lo (lo only by its sign; |lo| below half an ulp of x) to f.
// x must be finite.
func roundF64(f *fmtSpec, x, lo float64, r rnd, satfinite bool) uint64 {
	neg := math.Signbit(x)
	ax := math.Abs(x)
	sticky := 0
	if lo != 0 && x != 0 {
		if (lo > 0) == !neg {
			sticky = 1
		} else {
			sticky = -1
		}
	}
	if ax == 0 {
		if lo == 0 {
			return roundInt(f, neg, 0, 0, 0, r, satfinite)
		}
		// Only a residual: a tiny value of lo's sign.
		neg = lo < 0
		fr, ex := math.Frexp(math.Abs(lo))
		return roundInt(f, neg, uint64(fr*(1<<53)), ex-53, 0, r, satfinite) // never exact in practice
	}
	fr, ex := math.Frexp(ax) // ax = fr·2^ex, fr in [0.5,1)
	m := uint64(fr * (1 << 53))
	return roundInt(f, neg, m, ex-53, sticky, r, satfinite)
}

// roundBig rounds a finite big.Float (whose value is x plus a residual of sign
// sticky relative to |x|, smaller than any representable ulp) to f.
func roundBig(f *fmtSpec, x *big.Float, sticky int, r rnd, satfinite bool) uint64 {
	neg := x.Signbit()
	if x.Sign() == 0 {
		return roundInt(f, neg, 0, 0, 0, r, satfinite)
	}
	var mant big.Float
	ex := x.MantExp(&mant) // |mant| in [0.5,1)
	mant.Abs(&mant)
	// Take the top 64 bits: t = trunc(mant·2^64).
	var t big.Float
	t.SetPrec(0).SetMode(big.ToZero)
	t.SetMantExp(&mant, 64)
	top, acc := t.Uint64()
	if acc != big.Exact {
		// t has a fraction below one unit: residual of positive magnitude.
		sticky = 1
	}
	return roundInt(f, neg, top, ex-64, sticky, r, satfinite)
}

// tf32Layout converts a compact tf32 result to its f32-layout register bits.
func tf32Layout(x uint64) uint64 {
	mag := x &^ (1 << 31)
	if mag > fTF32.inf {
		return 0x7fffffff
	}
	return x&(1<<31) | mag<<13
}
