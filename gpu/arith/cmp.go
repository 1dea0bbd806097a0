package arith

import (
	"math"

	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// fmtOf returns the storage format of a float type (nil for non-float types).
func fmtOf(t ptx.Type) *fmtSpec {
	switch t {
	case ptx.F16:
		return &fF16
	case ptx.BF16:
		return &fBF16
	case ptx.F32:
		return &fF32
	case ptx.F64:
		return &fF64
	case ptx.TF32:
		return &fTF32
	}
	return nil
}

// floatVal reads a float source as float64, flushing f32 subnormals when ftz.
func floatVal(t ptx.Type, x uint64, ftz bool) float64 {
	switch t {
	case ptx.F32:
		b := uint32(x)
		if ftz {
			b = ftz32(b)
		}
		return float64(math.Float32frombits(b))
	case ptx.F64:
		return math.Float64frombits(x)
	}
	f := fmtOf(t)
	if f == nil {
		return 0
	}
	return decodeSmall(f, x&mask(f.width))
}

// compare evaluates the comparison of a and b of type t.
func (o *Op) compare(t ptx.Type, a, b uint64) bool {
	if isFloat(t) {
		x, y := floatVal(t, a, o.ftz), floatVal(t, b, o.ftz)
		un := math.IsNaN(x) || math.IsNaN(y)
		switch o.cmp {
		case cmpEQ:
			return !un && x == y
		case cmpNE:
			return !un && x != y
		case cmpLT:
			return !un && x < y
		case cmpLE:
			return !un && x <= y
		case cmpGT:
			return !un && x > y
		case cmpGE:
			return !un && x >= y
		case cmpEQU:
			return un || x == y
		case cmpNEU:
			return un || x != y
		case cmpLTU:
			return un || x < y
		case cmpLEU:
			return un || x <= y
		case cmpGTU:
			return un || x > y
		case cmpGEU:
			return un || x >= y
		case cmpNUM:
			return !un
		case cmpNAN:
			return un
		}
		return false
	}
	x, y := val(t, a), val(t, b)
	sx, sy := int64(x), int64(y)
	signed := isSigned(t)
	switch o.cmp {
	case cmpEQ:
		return x == y
	case cmpNE:
		return x != y
	case cmpLT:
		if signed {
			return sx < sy
		}
		return x < y
	case cmpLE:
		if signed {
			return sx <= sy
		}
		return x <= y
	case cmpGT:
		if signed {
			return sx > sy
		}
		return x > y
	case cmpGE:
		if signed {
			return sx >= sy
		}
		return x >= y
	case cmpLO:
		return x < y
	case cmpLS:
		return x <= y
	case cmpHI:
		return x > y
	case cmpHS:
		return x >= y
	}
	return false
}

func (o *Op) combine(t bool, c uint64) bool {
	q := c&1 == 1
	switch o.bop {
	case bopAnd:
		return t && q
	case bopOr:
		return t || q
	case bopXor:
		return t != q
	}
	return t
}

func (o *Op) evalCmp(src *[4]uint64) (uint64, uint64) {
	switch o.kind {
	case kSelp:
		if src[2]&1 == 1 {
			return out(o.t, src[0]), 0
		}
		return out(o.t, src[1]), 0
	case kSlct:
		var ge bool
		if o.st == ptx.F32 {
			ge = floatVal(ptx.F32, src[2], o.ftz) >= 0
		} else {
			ge = int32(uint32(src[2])) >= 0
		}
		r := src[1]
		if ge {
			r = src[0]
		}
		if o.t == ptx.F32 && o.ftz {
			r = uint64(ftz32(uint32(r)))
		}
		return out(o.t, r), 0
	}
	if o.st == ptx.F16x2 || o.st == ptx.BF16x2 {
		return o.evalCmpX2(src)
	}
	t := o.compare(o.st, src[0], src[1])
	p := o.combine(t, src[2])
	if o.kind == kSetp {
		return b2u(p), b2u(o.combine(!t, src[2]))
	}
	// set
	if !p {
		return 0, 0
	}
	switch o.t {
	case ptx.F32:
		return one32, 0
	case ptx.F16:
		return 0x3c00, 0
	case ptx.BF16:
		return 0x3f80, 0
	}
	return out(o.t, math.MaxUint64), 0
}

// evalCmpX2 compares packed halves: setp writes the low half's result to p
// and the high half's to q; set writes 1.0 (float destinations) or all ones
// (integer destinations) into each half whose comparison holds.
func (o *Op) evalCmpX2(src *[4]uint64) (uint64, uint64) {
	et := ptx.F16
	if o.st == ptx.BF16x2 {
		et = ptx.BF16
	}
	lo := o.combine(o.compare(et, src[0]&0xffff, src[1]&0xffff), src[2])
	hi := o.combine(o.compare(et, src[0]>>16&0xffff, src[1]>>16&0xffff), src[2])
	if o.kind == kSetp {
		return b2u(lo), b2u(hi)
	}
	var one uint64
	switch o.t {
	case ptx.F16x2:
		one = 0x3c00
	case ptx.BF16x2:
		one = 0x3f80
	default:
		one = 0xffff
	}
	var d uint64
	if lo {
		d |= one
	}
	if hi {
		d |= one << 16
	}
	return out(o.t, d), 0
}
