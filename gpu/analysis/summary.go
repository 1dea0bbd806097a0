package analysis

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/bits"

	"github.com/kernelscope/kernelscope/gpu/launch"
)

// The summaries of output buffers (summarise) are computed from the raw
// bytes. The sum adds each element as the report has always read it: the
// value of launch.FormatElem's text (f32 to 7 significant digits, f64 to 10,
// f16 to 5, bf16 to 4), obtained here by exact integer arithmetic instead of
// formatting and parsing; values outside the exact range fall back to the text.

// pow10f are the powers of ten that float64 holds exactly (a read-only table).
var pow10f = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// pow10u are the powers of ten that uint64 holds (a read-only table).
var pow10u = [...]uint64{1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19}

// log10of2 is log10(2).
const log10of2 = 0.30102999566398119521

// sumElems is the sum of the elements of b (a whole number of elements of
// type elem), each read as launch.ElemValue reads it, added in order.
func sumElems(b []byte, elem string) float64 {
	sum := 0.0
	switch elem {
	case "i8":
		for _, v := range b {
			sum += float64(int8(v))
		}
	case "u8":
		for _, v := range b {
			sum += float64(v)
		}
	case "i16":
		for i := 0; i+2 <= len(b); i += 2 {
			sum += float64(int16(binary.LittleEndian.Uint16(b[i:])))
		}
	case "u16":
		for i := 0; i+2 <= len(b); i += 2 {
			sum += float64(binary.LittleEndian.Uint16(b[i:]))
		}
	case "i32":
		for i := 0; i+4 <= len(b); i += 4 {
			sum += float64(int32(binary.LittleEndian.Uint32(b[i:])))
		}
	case "u32":
		for i := 0; i+4 <= len(b); i += 4 {
			sum += float64(binary.LittleEndian.Uint32(b[i:]))
		}
	case "i64":
		for i := 0; i+8 <= len(b); i += 8 {
			sum += float64(int64(binary.LittleEndian.Uint64(b[i:])))
		}
	case "u64":
		for i := 0; i+8 <= len(b); i += 8 {
			sum += float64(binary.LittleEndian.Uint64(b[i:]))
		}
	case "f16":
		for i := 0; i+2 <= len(b); i += 2 {
			sum += elemDecimal(b[i:i+2], elem, float64(launch.F16ToF32(binary.LittleEndian.Uint16(b[i:]))), 5)
		}
	case "bf16":
		for i := 0; i+2 <= len(b); i += 2 {
			sum += elemDecimal(b[i:i+2], elem, float64(math.Float32frombits(uint32(binary.LittleEndian.Uint16(b[i:]))<<16)), 4)
		}
	case "f32":
		return sumF32(b)
	case "f64":
		for i := 0; i+8 <= len(b); i += 8 {
			sum += elemDecimal(b[i:i+8], elem, math.Float64frombits(binary.LittleEndian.Uint64(b[i:])), 10)
		}
	default:
		size := launch.ElemSizes[elem]
		for i := 0; size > 0 && i+size <= len(b); i += size {
			sum += launch.ElemValue(b[i:i+size], elem)
		}
	}
	return sum
}

// sumF32 is sumElems of f32 elements: roundDecimalShort(x, 7) inlined into
// the loop (every f32 has at most 24 significant bits), elemDecimal where it
// does not apply (zero, Inf, NaN, magnitudes it does not reach).
func sumF32(b []byte) float64 {
	sum := 0.0
	lo, hi := pow10f[6], pow10f[7]
	for i := 0; i+4 <= len(b); i += 4 {
		x := float64(math.Float32frombits(binary.LittleEndian.Uint32(b[i:])))
		ax := math.Abs(x)
		ab := math.Float64bits(ax)
		if k := 6 - ((int(ab>>52)-1023)*78913)>>18; ax != 0 && ab>>52 != 0x7ff && k >= 0 && k <= 12 {
			p := pow10f[k]
			y := ax * p
			if y >= hi && k > 0 {
				p = pow10f[k-1]
				y = ax * p
			}
			if y >= lo && y < hi {
				v := math.RoundToEven(y) / p
				if x < 0 {
					v = -v
				}
				sum += v
				continue
			}
		}
		sum += elemDecimal(b[i:i+4], "f32", x, 7)
	}
	return sum
}

// elemDecimal is x rounded to digits significant decimal digits, as
// launch.ElemValue reads the element e whose value x is.
func elemDecimal(e []byte, elem string, x float64, digits int) float64 {
	if v, ok := roundDecimalShort(x, digits); ok {
		return v
	}
	if v, ok := roundDecimal(x, digits); ok {
		return v
	}
	return launch.ElemValue(e, elem)
}

// roundDecimal is the float64 nearest to x rounded (half to even) to digits
// significant decimal digits (1..15): what strconv.ParseFloat reads back from
// strconv.FormatFloat(x, 'g', digits, ...). ok is false where the exact
// integer arithmetic does not reach (very large or very small magnitudes).
func roundDecimal(x float64, digits int) (float64, bool) {
	switch {
	case math.IsNaN(x):
		return math.NaN(), true
	case x == 0 || math.IsInf(x, 0):
		return x, true
	}
	b := math.Float64bits(x)
	mant, exp := b&(1<<52-1), int(b>>52&0x7ff)
	if exp == 0 {
		exp = -1074
	} else {
		mant |= 1 << 52
		exp -= 1075
	}
	// |x| = mant * 2^exp; find k with 10^(digits-1) <= |x|*10^k < 10^digits.
	e10 := int(math.Floor(float64(exp+bits.Len64(mant)-1) * log10of2))
	k := digits - 1 - e10
	lo, hi := pow10u[digits-1], pow10u[digits]
	for range 4 {
		q, frac, ok := scaledFloor(mant, exp, k)
		switch {
		case !ok:
			return 0, false
		case q < lo:
			k++
			continue
		case q >= hi:
			k--
			continue
		}
		if frac > 0 || frac == 0 && q&1 == 1 {
			q++
		}
		var v float64
		switch {
		case k >= 0 && k < len(pow10f):
			v = float64(q) / pow10f[k]
		case k < 0 && -k < len(pow10f):
			v = float64(q) * pow10f[-k]
		default:
			return 0, false
		}
		if x < 0 {
			v = -v
		}
		return v, true
	}
	return 0, false
}

// roundDecimalShort is roundDecimal for a value of at most 24 significant
// bits (f32, f16, bf16) scaled by at most 10^12, where x*10^k is exact in
// float64 (24 bits + 5^12's 28), so that rounding it to an integer and
// dividing by 10^k (both exact operands, one correctly rounded division) gives
// what ParseFloat gives. ok is false outside that range or for a wider x.
func roundDecimalShort(x float64, digits int) (float64, bool) {
	ax := math.Abs(x)
	b := math.Float64bits(ax)
	if b&(1<<29-1) != 0 || ax == 0 || b>>52 == 0x7ff {
		return 0, false // more than 24 significant bits, zero, Inf or NaN
	}
	e2 := int(b>>52) - 1023          // floor(log2 |x|)
	k := digits - 1 - (e2*78913)>>18 // floor(e2 * log10(2)) is floor(log10 |x|) or one less
	lo, hi := pow10f[digits-1], pow10f[digits]
	if k < 0 || k > 12 {
		return 0, false
	}
	y := ax * pow10f[k]
	if y >= hi {
		if k--; k < 0 {
			return 0, false
		}
		y = ax * pow10f[k]
	}
	if y < lo || y >= hi {
		return 0, false
	}
	v := math.RoundToEven(y) / pow10f[k]
	if x < 0 {
		v = -v
	}
	return v, true
}

// scaledFloor is q = floor(mant * 2^exp * 10^k) and how the dropped fraction
// compares with one half (-1, 0, 1). A q too large for uint64 is returned as
// MaxUint64; ok is false outside the range computed exactly.
func scaledFloor(mant uint64, exp, k int) (q uint64, frac int, ok bool) {
	if k >= 0 {
		if k > 27 { // 5^27 is the largest power of five in a uint64
			return 0, 0, false
		}
		p5 := uint64(1)
		for range k {
			p5 *= 5
		}
		hi, lo := bits.Mul64(mant, p5)
		s := exp + k // the product is (hi, lo) * 2^s
		switch {
		case s >= 0:
			if hi != 0 || s >= 64 || bits.Len64(lo)+s > 64 {
				return math.MaxUint64, 0, true
			}
			return lo << s, -1, true
		case s <= -128:
			return 0, -1, true
		case s <= -64:
			t := uint(-s - 64)
			q = hi >> t
			remHi, remLo := hi&(1<<t-1), lo
			halfHi, halfLo := uint64(0), uint64(1)<<63
			if t > 0 {
				halfHi, halfLo = 1<<(t-1), 0
			}
			return q, cmp128(remHi, remLo, halfHi, halfLo), true
		default:
			sh := uint(-s)
			if hi>>sh != 0 {
				return math.MaxUint64, 0, true
			}
			q = hi<<(64-sh) | lo>>sh
			rem, half := lo&(1<<sh-1), uint64(1)<<(sh-1)
			return q, cmp128(0, rem, 0, half), true
		}
	}
	j := -k
	if j >= len(pow10u) {
		return 0, 0, false
	}
	p := pow10u[j]
	if exp >= 0 {
		if bits.Len64(mant)+exp > 64 {
			return 0, 0, false
		}
		n := mant << exp
		q, rem := n/p, n%p
		return q, cmp128(0, rem, 0, p-rem), true
	}
	sh := -exp
	if sh >= 64 || bits.Len64(p)+sh > 64 {
		return 0, 0, false
	}
	d := p << sh
	q, rem := mant/d, mant%d
	return q, cmp128(0, rem, 0, d-rem), true
}

// cmp128 compares the 128-bit numbers (aHi, aLo) and (bHi, bLo): -1, 0 or 1.
func cmp128(aHi, aLo, bHi, bLo uint64) int {
	switch {
	case aHi != bHi:
		if aHi < bHi {
			return -1
		}
		return 1
	case aLo < bLo:
		return -1
	case aLo > bLo:
		return 1
	}
	return 0
}

// changedElems counts the elements of after that differ from before, over the
// first n elements of size bytes that before holds.
func changedElems(before, after []byte, size, n int) int {
	n = min(n, len(before)/size)
	before, after = before[:n*size], after[:n*size]
	if bytes.Equal(before, after) {
		return 0
	}
	changed := 0
	switch size {
	case 1:
		for i := range after {
			if before[i] != after[i] {
				changed++
			}
		}
	case 2:
		for i := 0; i < len(after); i += 2 {
			if binary.LittleEndian.Uint16(before[i:]) != binary.LittleEndian.Uint16(after[i:]) {
				changed++
			}
		}
	case 4:
		for i := 0; i < len(after); i += 4 {
			if binary.LittleEndian.Uint32(before[i:]) != binary.LittleEndian.Uint32(after[i:]) {
				changed++
			}
		}
	case 8:
		for i := 0; i < len(after); i += 8 {
			if binary.LittleEndian.Uint64(before[i:]) != binary.LittleEndian.Uint64(after[i:]) {
				changed++
			}
		}
	default:
		for i := 0; i < len(after); i += size {
			if !bytes.Equal(before[i:i+size], after[i:i+size]) {
				changed++
			}
		}
	}
	return changed
}
