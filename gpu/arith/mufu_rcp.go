package arith

import "math"

// MUFU.RCP, MUFU.RSQ and MUFU.SQRT as the H200 computes them (issue 18,
// docs/special-functions.md section 3): a quadratic interpolation in fixed
// point. The top mantissa bits (7 for RCP; 6 and the exponent's parity for RSQ
// and SQRT) select a segment {C0, C1, C2}; with t the remaining n mantissa bits
// the significand is floor((C0 + C1*t + C2*sq(t)) / 2^g), where sq(t) is t^2
// from a truncated squarer (only the folded partial-product bits of weight
// 2^w and above, shifted right by n). Nothing else is truncated. The widths
// and the tables (mufu_rcp_tables.go) were recovered from the H200's outputs
// on [1, 2) and [2, 4) by scripts/mufu/interp: every segment has exactly one
// (C1, C2) that reproduces all its outputs.

// isNormal32 reports a normal finite f32 (bits x).
func isNormal32(x uint32) bool { e := x >> 23 & 0xff; return e != 0 && e != 0xff }

// interpSeg is one segment's coefficients.
type interpSeg struct {
	c0     int64
	c1, c2 int32
}

// interpSq is the truncated squarer: the bits t_i*t_k*2^(i+k) of t^2 (folded:
// t_i*2^(2i) and, for i < k, t_i*t_k*2^(i+k+1)) of weight >= 2^w, shifted right by n.
func interpSq(t uint32, n, w int) int64 {
	var r int64
	for i := 0; i < n; i++ {
		bit := -int64(t >> uint(i) & 1) // all ones where t_i is set: no branch on data
		k := i + 1
		if w-1-i > k {
			k = w - 1 - i
		}
		var v int64
		if 2*i >= w {
			v = 1 << uint(2*i)
		}
		if k < n {
			v += int64(t>>uint(k)<<uint(k)) << uint(i+1)
		}
		r += bit & v
	}
	return r >> uint(n)
}

// interpEval is floor((C0 + C1*t + C2*sq(t)) / 2^g) for segment s.
func interpEval(s *interpSeg, t uint32, n, w, g int) uint32 {
	p := s.c0 + int64(s.c1)*int64(t) + int64(s.c2)*interpSq(t, n, w)
	return uint32(p >> uint(g))
}

// packSig returns the f32 bits of sig * 2^(e-23) for a significand sig in
// [2^23, 2^24] (2^24 carries into the exponent), flushed to ±0 below the
// smallest normal as MUFU does.
func packSig(neg bool, sig uint32, e int) uint32 {
	if sig >= 1<<24 {
		sig >>= 1
		e++
	}
	var s uint32
	if neg {
		s = sgn32
	}
	be := e + 127
	if be <= 0 {
		return s
	}
	if be >= 255 {
		return s | 0x7f800000
	}
	return s | uint32(be)<<23 | sig&0x7fffff
}

// mufuRcpInterp is MUFU.RCP of a normal finite f32 (bits xb).
func mufuRcpInterp(xb uint32) uint32 {
	m := xb & 0x7fffff
	e := int(xb>>23&0xff) - 127
	y := interpEval(&rcpTab[m>>16], m&0xffff, 16, 17, 16) // significand * 2^24 of 1/(1.m)
	return packSig(xb&sgn32 != 0, y, -e-24+23)
}

// mufuRsqInterp is MUFU.RSQ of a positive normal finite f32.
func mufuRsqInterp(xb uint32) uint32 {
	m := xb & 0x7fffff
	e := int(xb>>23&0xff) - 127
	odd := e & 1
	if m == 0 && odd == 0 {
		return packSig(false, 1<<23, -(e >> 1)) // x = 4^k: exact (measured)
	}
	// x = (1.m * 2^odd) * 2^(e-odd); odd selects the table half for [2, 4).
	y := interpEval(&rsqTab[odd<<6|int(m>>17)], m&0x1ffff, 17, 19, 17) // * 2^24
	return packSig(false, y, -(e>>1)-1)
}

// mufuSqrtInterp is MUFU.SQRT of a positive normal finite f32.
func mufuSqrtInterp(xb uint32) uint32 {
	m := xb & 0x7fffff
	e := int(xb>>23&0xff) - 127
	odd := e & 1
	y := interpEval(&sqrtTab[odd<<6|int(m>>17)], m&0x1ffff, 17, 19, 18) // * 2^23
	return packSig(false, y, e>>1)
}

// MUFU.RCP64H and MUFU.RSQ64H (rcp.approx.ftz.f64, rsqrt.approx{.ftz}.f64) read
// the high word of an f64 (sign, exponent, 20 mantissa bits) and write the high
// word of the result, the low word being zero. Measured (scripts/mufu/f64.cu,
// 2026-12-02): they are the f32 unit's interpolation on the 20 mantissa bits
// followed by three zero bits, with the 24-bit significand truncated to 21
// bits; subnormal inputs count as zero and results below 2^-1022 are flushed.

// mufu64H is MUFU.RCP64H (rsq false) or MUFU.RSQ64H of the f64 bits a.
func mufu64H(rsq bool, a uint64) uint64 {
	const sgn, inf = 1 << 63, 0x7ff0000000000000
	hi := a &^ 0xffffffff
	neg := hi&sgn != 0
	be := int(hi >> 52 & 0x7ff)
	switch {
	case hi&^sgn > inf:
		return 0x7fffffff00000000
	case be == 0: // zero and subnormal: ±Inf
		return hi&sgn | inf
	case rsq && neg:
		return 0x7fffffff00000000
	case be == 0x7ff: // ±Inf: ±0
		return hi & sgn
	}
	m := uint32(hi>>29) & 0x7fffff // 20 mantissa bits, three zero bits
	e := be - 1023
	var y uint32
	var re int // the result is y * 2^(re-23), y in [2^23, 2^24]
	if rsq {
		if m == 0 && e&1 == 0 {
			y, re = 1<<23, -(e >> 1)
		} else {
			y, re = interpEval(&rsqTab[(e&1)<<6|int(m>>17)], m&0x1ffff, 17, 19, 17), -(e>>1)-1
		}
	} else {
		y, re = interpEval(&rcpTab[m>>16], m&0xffff, 16, 17, 16), -e-1
	}
	if y >= 1<<24 {
		y >>= 1
		re++
	}
	r := uint64(0)
	if neg {
		r = sgn
	}
	if re+1023 <= 0 {
		return r
	}
	return r | uint64(re+1023)<<52 | uint64(y>>3&0xfffff)<<32
}

// rsqrtApprox64 is rsqrt.approx.f64 as ptxas 13.0 compiles it for sm_90
// (measured SASS, testdata/measured/mufu/f64.sass.gz): r = RSQ64H(x), then
// e = fma(-r*r, x, 1) and r + fma(e, 0.375, 0.5) * (e*r) in f64 arithmetic;
// outside the positive normal range a slow path gives ±Inf for ±0, +0 for +Inf,
// the canonical NaN 0xfff8000000000000 for negative inputs, propagates NaNs
// and scales positive subnormals by 2^54 (the result by 2^27).
func rsqrtApprox64(a uint64) uint64 {
	hi := uint32(a >> 32)
	x := math.Float64frombits(a)
	scale := 1.0
	if hi-0x00100000 >= 0x7fe00000 {
		switch {
		case x == 0:
			return a&(1<<63) | 0x7ff0000000000000
		case math.IsNaN(x):
			return a | quiet64
		case a>>63 != 0:
			return 0xfff8000000000000
		case math.IsInf(x, 1):
			return 0
		}
		x *= 0x1p54
		scale = 0x1p27
	}
	r := math.Float64frombits(mufu64H(true, math.Float64bits(x)))
	e := math.FMA(-(r * r), x, 1)
	y := math.FMA(math.FMA(e, 0.375, 0.5), e*r, r)
	return math.Float64bits(y * scale)
}
