package arith

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
		if t>>uint(i)&1 == 0 {
			continue
		}
		if 2*i >= w {
			r += 1 << uint(2*i)
		}
		k := i + 1
		if w-1-i > k {
			k = w - 1 - i
		}
		if k < n {
			r += int64(t>>uint(k)<<uint(k)) << uint(i+1)
		}
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
