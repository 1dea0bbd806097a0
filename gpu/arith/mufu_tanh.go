package arith

import (
	"math"
	"math/bits"
)

// MUFU.TANH on the H200 (measured, docs/special-functions.md section 8): for
// |x| < 2^-8 (subnormals included) the unit returns x itself, from 16 on
// (and for Inf) ±1; in between, on the binades of tanhBins, the same
// quadratic interpolator as MUFU.EX2: the mantissa's drop low bits are
// ignored, the next 17 are x2, the bits above pick the segment, and
// Y = C0 + C1 x2 + C2 sq(x2) (tanhCoef) in units of 2^-scale is truncated to
// f32 and takes x's sign.

// tanhBin is one binade of MUFU.TANH's table: the low mantissa bits the unit
// ignores, the unit of Y (2^-scale) and the binade's first row of tanhCoef.
type tanhBin struct{ drop, scale, first uint32 }

// tanhFirstExp is the biased exponent of tanhBins[0] (|x| in [2^-8, 2^-7)).
const tanhFirstExp = 119

// tanhBins lists the binades of tanhCoef by biased exponent from
// tanhFirstExp: 119 to 130, |x| in [2^-8, 16) (measured; first counts the
// segments, 2^(23 - 17 - drop) a binade, of the binades before).
var tanhBins = [...]tanhBin{
	{6, 38, 0}, {6, 38, 1}, {6, 38, 2}, // [2^-8, 2^-5): one segment each
	{5, 38, 3}, {5, 38, 5}, // [2^-5, 2^-3): two
	{4, 38, 7}, {4, 38, 11}, {4, 38, 15}, // [2^-3, 1): four
	{3, 38, 19},              // [1, 2): eight
	{2, 39, 27},              // [2, 4): sixteen, Y in units of 2^-39
	{3, 38, 43}, {3, 38, 51}, // [4, 16): eight
}

// mufuTanh is MUFU.TANH on f32 bits.
func mufuTanh(xb uint32) uint32 {
	a := xb &^ sgn32
	switch {
	case isNaN32(xb):
		return nan32
	case a < (tanhFirstExp << 23): // |x| < 2^-8: x (measured on every input)
		return xb
	case a >= (tanhFirstExp+uint32(len(tanhBins)))<<23: // |x| >= 16, Inf: ±1
		return xb&sgn32 | one32
	}
	r, _ := mufuTanhTable(xb)
	return r
}

// mufuTanhTable is MUFU.TANH on the binades of tanhBins: (C0 + C1 x2 +
// C2 sq(x2)) 2^-scale from tanhCoef, truncated to f32, with x's sign; ok is
// false outside them.
func mufuTanhTable(xb uint32) (r uint32, ok bool) {
	i := int(xb>>23&0xff) - tanhFirstExp
	if i < 0 || i >= len(tanhBins) {
		return 0, false
	}
	b := &tanhBins[i]
	m := xb & (1<<23 - 1)
	c := &tanhCoef[b.first+m>>(b.drop+ex2SegBits)]
	x2 := uint64(m >> b.drop & (1<<ex2SegBits - 1))
	y := uint64(c[0] + c[1]*int64(x2) + c[2]*int64(mufuSq(x2)))
	if n := bits.Len64(y); n > 24 {
		y = y >> (n - 24) << (n - 24)
	}
	return xb&sgn32 | math.Float32bits(float32(math.Ldexp(float64(y), -int(b.scale)))), true
}
