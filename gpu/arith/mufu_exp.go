package arith

import (
	"math"
	"math/bits"
)

// MUFU.EX2 on the H200 (measured, docs/special-functions.md section 3): the
// argument becomes fixed point with 23 fraction bits by truncating |x|; a
// negative argument with a non-zero fraction takes the one's complement
// (F' = -F - 1, so the fraction used is 1 - f - 2^-23 and the integer part
// one lower), a negative whole number is exact. The result is
// 2^(F' >> 23) * (1 + T[F' mod 2^23] / 2^23), flushed to zero below 2^-126
// and Inf from 2^128. This rule reproduces every output of the buckets
// checked (TestEx2ArgumentRule); and the mantissa table T is the
// interpolator's, recovered exactly (ex2Mant).

// ex2SegBits is the width of the offset inside one of the table's 64 segments.
const ex2SegBits = 17

// mufuEx2 is MUFU.EX2 on f32 bits (the caller has flushed subnormal inputs).
func mufuEx2(xb uint32) uint32 {
	e, k, r, ok := ex2Split(xb)
	if !ok {
		return r
	}
	return ex2Join(e, ex2Mant(k))
}

// ex2Split is MUFU.EX2's argument handling: the biased exponent e and table
// index k of the result, or (when ok is false) the whole result r.
func ex2Split(xb uint32) (e int64, k uint32, r uint32, ok bool) {
	if isNaN32(xb) {
		return 0, 0, nan32, false
	}
	a := xb &^ sgn32
	neg := xb&sgn32 != 0
	if a >= 0x43000000 { // |x| >= 128 (and Inf)
		if neg {
			return 0, 0, 0, false
		}
		return 0, 0, 0x7f800000, false
	}
	// Exact: |x| < 128 has at most 7 integer and, kept here, 23 fraction bits.
	f := int64(float64(math.Float32frombits(a)) * (1 << 23))
	if neg && f&(1<<23-1) != 0 {
		f = -f - 1
	} else if neg {
		f = -f
	}
	e = f>>23 + 127
	if e <= 0 {
		return 0, 0, 0, false
	}
	return e, uint32(f & (1<<23 - 1)), 0, true
}

// ex2Join assembles the result from the biased exponent and the mantissa; a
// mantissa of 2^23 carries into the exponent.
func ex2Join(e int64, m uint32) uint32 {
	r := uint32(e)<<23 + m
	if r >= 0x7f800000 {
		return 0x7f800000
	}
	return r
}

// ex2Mant is T[k], the mantissa MUFU.EX2 returns for the fraction k 2^-23:
// with k = x1 (6 bits) : x2 (17 bits), floor((C0 + C1 x2 + C2 sq(x2)) / 2^15)
// with the table ex2Coef recovered from the H200 (scripts/mufu/tabfit) and
// sq the unit's truncated squarer (mufuSq). A result of 2^23 carries.
func ex2Mant(k uint32) uint32 {
	c := &ex2Coef[k>>ex2SegBits]
	x2 := uint64(k & (1<<ex2SegBits - 1))
	y := c[0] + c[1]*int64(x2) + c[2]*int64(mufuSq(x2))
	return uint32(y >> 15)
}

// mufuSq is the MUFU interpolators' squarer on a 17-bit x: the partial
// products of x^2 (b_i at column 2i, b_i b_j for i < j at column i+j+1) in
// columns 19 and above only, shifted right by 19 (measured on ex2 and lg2).
func mufuSq(x uint64) uint64 {
	var s uint64
	for i := uint(0); i < ex2SegBits; i++ {
		if x>>i&1 == 0 {
			continue
		}
		if 2*i >= 19 {
			s += 1 << (2 * i)
		}
		lo := i + 1 // cross terms b_i b_j, j > i, at column i+j+1 >= 19
		if 18-i > lo {
			lo = 18 - i
		}
		if lo < ex2SegBits {
			s += (x >> lo << lo) << (i + 1)
		}
	}
	return s >> 19
}

// mufuLg2 is MUFU.LG2 on f32 bits (the caller has flushed subnormal inputs).
// Measured: for x = 2^e (1 + k 2^-23) the unit forms the fixed-point sum
// t = e 2^36 + Y, with Y = log2(1 + k 2^-23) 2^36 from the same interpolator
// as MUFU.EX2 (lg2Coef, truncated from 2^-38 to 2^-36); a negative t is
// negated by one's complement (magnitude -t - 1); the magnitude is
// truncated to f32. x = 1 gives +0.
func mufuLg2(xb uint32) uint32 {
	switch {
	case isNaN32(xb) || xb > sgn32:
		return nan32
	case xb&^sgn32 == 0:
		return 0xff800000 // -Inf for ±0
	case xb == 0x7f800000:
		return xb
	case xb == one32:
		return 0
	}
	k := xb & (1<<23 - 1)
	c := &lg2Coef[k>>ex2SegBits]
	x2 := uint64(k & (1<<ex2SegBits - 1))
	y := (c[0] + c[1]*int64(x2) + c[2]*int64(mufuSq(x2))) >> 2
	t := (int64(xb>>23)-127)<<36 + y
	sign := uint32(0)
	if t < 0 {
		t, sign = -t-1, sgn32
	}
	m := uint64(t)
	if n := bits.Len64(m); n > 24 {
		m = m >> (n - 24) << (n - 24) // truncate to 24 significant bits
	}
	return sign | math.Float32bits(float32(math.Ldexp(float64(m), -36)))
}

// mufuSinCos is MUFU.SIN / MUFU.COS on r (f32 bits, revolutions; the caller
// has flushed subnormal inputs). Measured: the unit reads p = floor(|r| 2^25)
// mod 2^25 (cos: p + 2^23), quadrant q = p >> 23 and u = p mod 2^23, replaced
// by its one's complement in odd quadrants; the result is Q[u] =
// (C0 + C1 x2 + C2 sq(x2)) 2^-38 from the same interpolator (sinCoef),
// truncated to f32, negated for q >= 2 and, for sin, for r < 0.
func mufuSinCos(cos bool, rb uint32) uint32 {
	if rb&0x7f800000 == 0x7f800000 {
		return nan32 // NaN and ±Inf
	}
	var p uint64 // |r| >= 2^24 is a whole number of revolutions: p = 0
	if rb&^sgn32 < 0x4b800000 {
		p = uint64(float64(math.Float32frombits(rb&^sgn32)) * (1 << 25)) // floor, exact
	}
	p &= 1<<25 - 1
	sign := rb & sgn32
	if cos {
		p = (p + 1<<23) & (1<<25 - 1)
		sign = 0
	}
	q, u := p>>23, uint32(p&(1<<23-1))
	if q&1 == 1 {
		u = 1<<23 - 1 - u
	}
	if q >= 2 {
		sign ^= sgn32
	}
	c := &sinCoef[u>>ex2SegBits]
	x2 := uint64(u & (1<<ex2SegBits - 1))
	y := uint64(c[0] + c[1]*int64(x2) + c[2]*int64(mufuSq(x2)))
	if n := bits.Len64(y); n > 24 {
		y = y >> (n - 24) << (n - 24)
	}
	return sign | math.Float32bits(float32(math.Ldexp(float64(y), -38)))
}
