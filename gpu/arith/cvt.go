package arith

import (
	"math"

	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// intRange returns the range of an integer type as float64 bounds and int bounds.
func intBounds(t ptx.Type) (lo int64, hi uint64) {
	w := width(t)
	if isSigned(t) {
		return -(int64(1) << (w - 1)), uint64(1)<<(w-1) - 1
	}
	return 0, mask(w)
}

func (o *Op) evalCvt(src *[4]uint64) uint64 {
	switch o.kind {
	case kCvtPack:
		f := fmtOfPacked(o.t)
		a := o.cvtToFloat(f, ptx.F32, src[0])
		b := o.cvtToFloat(f, ptx.F32, src[1])
		return a<<f.width | b
	case kCvtUnpack:
		sf := fmtOfPacked(o.st)
		lo := o.cvtFloatToFloat(&fF16, decodeSmall(sf, src[0]&0xff), false)
		hi := o.cvtFloatToFloat(&fF16, decodeSmall(sf, src[0]>>8&0xff), false)
		return hi<<16 | lo
	case kCvtPackInt:
		lo, hi := intBounds(o.t)
		w := width(o.t)
		sat := func(x int64) uint64 {
			if x < lo {
				x = lo
			}
			if x > int64(hi) {
				x = int64(hi)
			}
			return uint64(x) & mask(w)
		}
		a, b := sat(int64(int32(src[0]))), sat(int64(int32(src[1])))
		if w == 16 {
			return a<<16 | b
		}
		// 8-bit: {a, b} go to bytes 1 and 0; bytes 3..2 come from c's low half.
		var c uint64
		if o.nsrc > 2 {
			c = src[2] & 0xffff
		}
		return c<<16 | a<<8 | b
	}
	d, s := o.t, o.st
	if d == ptx.E4M3x2 || d == ptx.E5M2x2 { // from f16x2 or bf16x2
		f := fmtOfPacked(d)
		et := ptx.F16
		if s == ptx.BF16x2 {
			et = ptx.BF16
		}
		lo := o.cvtToFloat(f, et, src[0]&0xffff)
		hi := o.cvtToFloat(f, et, src[0]>>16&0xffff)
		return hi<<8 | lo
	}
	df, sf := isFloat(d), isFloat(s)
	switch {
	case !df && !sf:
		x := val(s, src[0])
		if o.sat {
			lo, hi := intBounds(d)
			if isSigned(s) {
				if v := int64(x); v < lo {
					x = uint64(lo)
				} else if v >= 0 && uint64(v) > hi {
					x = hi
				}
			} else if x > hi {
				x = hi
			}
		}
		return out(d, x)
	case !df && sf:
		v := floatVal(s, src[0], o.ftz)
		if math.IsNaN(v) {
			// The H200 writes 0 for f32 to 32-bit-or-narrower integers and the
			// sign-bit pattern for 64-bit destinations and f64 sources.
			if width(d) == 64 || s == ptx.F64 {
				return out(d, 1<<(width(d)-1))
			}
			return 0
		}
		return o.cvtFloatToInt(d, v)
	case df && !sf:
		x := val(s, src[0])
		neg := isSigned(s) && int64(x) < 0
		m := x
		if neg {
			m = -x
		}
		f := fmtOf(d)
		r := o.rnd
		if r == rnNone {
			r = rnRN
		}
		return o.postCvtFloat(f, roundInt(f, neg, m, 0, 0, r, o.satfin))
	}
	return o.cvtToFloat(fmtOf(d), s, src[0])
}

// fmtOfPacked returns the element format of a packed destination type.
func fmtOfPacked(t ptx.Type) *fmtSpec {
	switch t {
	case ptx.F16x2:
		return &fF16
	case ptx.BF16x2:
		return &fBF16
	case ptx.E4M3x2:
		return &fE4M3
	case ptx.E5M2x2:
		return &fE5M2
	}
	return fmtOf(t)
}

// cvtNaN is the NaN cvt writes for a NaN source x of type s, as the H200
// gives it: f64 to f32 keeps sign and top payload bits (quieted), f32 to f64
// widens the payload (quieted) unless .ftz, which writes the canonical f32 NaN
// widened, f64 to f64 quiets the operand, bf16 to f32 is an exact widening, f64 to
// bf16 keeps sign and top payload bits (quieted) as f64 to f32 does;
// everything else writes the destination's canonical NaN.
func (o *Op) cvtNaN(f *fmtSpec, s ptx.Type, x uint64) uint64 {
	switch {
	case f == &fF32 && s == ptx.F64:
		return x>>32&sgn32 | 0x7fc00000 | (x>>29)&0x7fffff
	case f == &fF64 && s == ptx.F32:
		if o.ftz {
			return 0x7fffffffe0000000
		}
		return (x&sgn32)<<32 | 0x7ff8000000000000 | (x&0x7fffff)<<29
	case f == &fF64 && s == ptx.F64:
		return x | quiet64
	case f == &fF32 && s == ptx.BF16:
		return (x & 0xffff) << 16
	case f == &fBF16 && s == ptx.F64:
		// as f64 to f32, kept to bf16's 7 payload bits: the H200 gives 0x7fc0 for
		// 0x7ff8000000000000 (testdata/realcuda/features, fp16_ops slot 7)
		return x>>48&0x8000 | 0x7fc0 | (x>>45)&0x7f
	}
	return f.nan
}

// cvtToFloat converts a float source of type s to format f.
func (o *Op) cvtToFloat(f *fmtSpec, s ptx.Type, x uint64) uint64 {
	v := floatVal(s, x, o.ftz)
	if math.IsNaN(v) && !o.sat {
		return o.cvtNaN(f, s, x)
	}
	if o.intRnd {
		switch o.rnd {
		case rnRZ:
			v = math.Trunc(v)
		case rnRM:
			v = math.Floor(v)
		case rnRP:
			v = math.Ceil(v)
		default:
			v = math.RoundToEven(v)
		}
	}
	return o.cvtFloatToFloat(f, v, true)
}

// cvtFloatToFloat rounds v to f and applies .relu, .sat, .ftz and NaN rules.
func (o *Op) cvtFloatToFloat(f *fmtSpec, v float64, useMode bool) uint64 {
	r := o.rnd
	if !useMode || o.intRnd || r == rnNone {
		r = rnRN
	}
	if math.IsNaN(v) {
		if o.sat {
			return 0
		}
		return f.nan
	}
	if o.relu && (v < 0 || (v == 0 && math.Signbit(v))) {
		v = 0
	}
	var bits uint64
	switch f {
	case &fF64:
		bits = math.Float64bits(v)
	case &fTF32:
		return tf32Layout(f64To(f, v, r, o.satfin))
	default:
		bits = f64To(f, v, r, o.satfin)
		if o.ftz && f == &fF32 && bits&^sgn32 == minNormal32 && math.Abs(v) < 0x1p-126 && tinyAfter24(v, 0, r) {
			return bits & sgn32 // .ftz decides on the 24-bit rounding: see tinyAfter24
		}
	}
	return o.postCvtFloat(f, bits)
}

// postCvtFloat applies .ftz (f32 destinations) and .sat to a converted value.
func (o *Op) postCvtFloat(f *fmtSpec, bits uint64) uint64 {
	sb := f.signBit()
	if o.ftz && f == &fF32 && isSubBits(f, bits) {
		bits &= sb
	}
	if o.sat {
		if isNaNBits(f, bits) || bits&sb != 0 {
			return 0
		}
		one := float64ToFmtOne(f)
		if bits > one {
			return one
		}
	}
	return bits
}

// float64ToFmtOne is the encoding of 1.0 in format f.
func float64ToFmtOne(f *fmtSpec) uint64 {
	return uint64(f.bias) << f.mant
}

// cvtFloatToInt converts to an integer type with the integer rounding mode,
// saturating to the destination range; NaN gives 0.
func (o *Op) cvtFloatToInt(d ptx.Type, v float64) uint64 {
	if math.IsNaN(v) {
		return 0
	}
	switch o.rnd {
	case rnRZ:
		v = math.Trunc(v)
	case rnRM:
		v = math.Floor(v)
	case rnRP:
		v = math.Ceil(v)
	default:
		v = math.RoundToEven(v)
	}
	lo, hi := intBounds(d)
	if v <= float64(lo) {
		return out(d, uint64(lo))
	}
	if v >= float64(hi) { // float64(hi) may round up to 2^w; any v >= it saturates
		return out(d, hi)
	}
	if v < 0 {
		return out(d, uint64(int64(v)))
	}
	return out(d, uint64(v))
}
