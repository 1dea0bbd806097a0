package toolchain

// This file replays, operation for operation, the transcendental algorithms of
// prelude/kernelscope_libdevice.h in Go and measures their error. The C code uses
// only correctly rounded operations (fma, add, mul, div.rn, cvt.rni, integer ops)
// with contraction off, so each Go line below computes the same bits as the PTX
// clang emits for the matching C line. Keep the two in step.

import (
	"math"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// fmaf is a correctly rounded float32 fused multiply-add: a*b is exact in float64;
// the sum is rounded to odd in float64 and then to float32, which is correct.
func fmaf(a, b, c float32) float32 {
	p := float64(a) * float64(b)
	cc := float64(c)
	s := p + cc
	if math.IsInf(s, 0) || math.IsNaN(s) {
		return float32(s)
	}
	bb := s - p
	e := (p - (s - bb)) + (cc - bb)
	if e != 0 {
		bits := math.Float64bits(s)
		if bits&1 == 0 {
			if (e > 0) == (s > 0) {
				bits++
			} else {
				bits--
			}
			s = math.Float64frombits(bits)
		}
	}
	return float32(s)
}

func rintf(x float32) float32 { return float32(math.RoundToEven(float64(x))) }

func pow2f(k int) float32 { return math.Float32frombits(uint32(k+127) << 23) }

func scalef(p float32, j int) float32 {
	j1 := j / 2
	return float32(float32(p*pow2f(j1)) * pow2f(j-j1))
}

func expm1Kernelf(r float32) float32 {
	p := float32(2.48015873e-5)
	p = fmaf(p, r, 1.98412698e-4)
	p = fmaf(p, r, 1.38888889e-3)
	p = fmaf(p, r, 8.33333333e-3)
	p = fmaf(p, r, 4.16666667e-2)
	p = fmaf(p, r, 1.66666667e-1)
	p = fmaf(p, r, 0.5)
	return fmaf(float32(p*r), r, r)
}

func ksExpf(x float32) float32 {
	if x != x {
		return x + x
	}
	if x > 88.7228394 {
		return float32(math.Inf(1))
	}
	if x < -103.972084 {
		return 0
	}
	j := rintf(float32(x * 1.44269502))
	r := fmaf(j, -0.693147182, x)
	r = fmaf(j, 1.90465421e-9, r)
	p := float32(expm1Kernelf(r) + 1)
	return scalef(p, int(j))
}

func ksExp2f(x float32) float32 {
	if x != x {
		return x + x
	}
	if x >= 128 {
		return float32(math.Inf(1))
	}
	if x < -150 {
		return 0
	}
	j := rintf(x)
	f := float32(x - j)
	r := fmaf(f, 0.693147182, float32(f*-1.90465421e-9))
	p := float32(expm1Kernelf(r) + 1)
	return scalef(p, int(j))
}

func logKernelf(x float32) (float32, int) {
	b := math.Float32bits(x)
	k := 0
	if b < 0x00800000 {
		b = math.Float32bits(float32(x * 16777216))
		k = -24
	}
	k += int(b>>23) - 127
	b = (b & 0x007fffff) | 0x3f800000
	if b > 0x3fb504f3 {
		b -= 0x00800000
		k++
	}
	f := float32(math.Float32frombits(b) - 1)
	s := float32(f / float32(2+f))
	z := float32(s * s)
	R := float32(1.53846154e-1)
	R = fmaf(R, z, 1.81818182e-1)
	R = fmaf(R, z, 2.22222222e-1)
	R = fmaf(R, z, 2.85714286e-1)
	R = fmaf(R, z, 4.0e-1)
	R = fmaf(R, z, 6.66666667e-1)
	R = float32(R * z)
	return fmaf(-s, float32(f-R), f), k
}

func logSpecialf(x float32) (float32, bool) {
	switch {
	case x != x:
		return x + x, true
	case x < 0:
		return float32(math.NaN()), true
	case x == 0:
		return float32(math.Inf(-1)), true
	case math.IsInf(float64(x), 1):
		return x, true
	}
	return 0, false
}

func ksLogf(x float32) float32 {
	if s, done := logSpecialf(x); done {
		return s
	}
	l, e := logKernelf(x)
	fe := float32(e)
	return fmaf(fe, 0.693147182, fmaf(fe, -1.90465421e-9, l))
}

func ksLog2f(x float32) float32 {
	if s, done := logSpecialf(x); done {
		return s
	}
	l, e := logKernelf(x)
	return fmaf(l, 1.44269502, fmaf(l, 1.92596303e-8, float32(e)))
}

func ksLog10f(x float32) float32 {
	if s, done := logSpecialf(x); done {
		return s
	}
	l, e := logKernelf(x)
	fe := float32(e)
	t := fmaf(l, 0.434294492, fmaf(l, -1.01030500e-8, float32(fe*-1.43209888e-8)))
	return fmaf(fe, 0.301030010, t)
}

var twoOverPi = [41]uint32{0x00000000,
	0xA2F9836E, 0x4E441529, 0xFC2757D1, 0xF534DDC0, 0xDB629599, 0x3C439041, 0xFE5163AB, 0xDEBBC561,
	0xB7246E3A, 0x424DD2E0, 0x06492EEA, 0x09D1921C, 0xFE1DEB1C, 0xB129A73E, 0xE88235F5, 0x2EBB4484,
	0xE99C7026, 0xB45F7E41, 0x3991D639, 0x835339F4, 0x9C845F8B, 0xBDF9283B, 0x1FF897FF, 0xDE05980F,
	0xEF2F118B, 0x5A0A6D1F, 0x6D367ECF, 0x27CB09B7, 0x4F463F66, 0x9E5FEA2D, 0x7527BAC7, 0xEBE5F17B,
	0x3D0739F7, 0x8A5292EA, 0x6BFB5FB1, 0x1F8D5D08, 0x56033046, 0xFC7B6BAB, 0xF0CFBC20, 0x9AF4361D,
}

func reducef(x float32) (float32, int) {
	ax := float32(math.Abs(float64(x)))
	if ax < 16384 {
		j := rintf(float32(x * 0.636619747))
		t := fmaf(j, -1.57079637, x)
		t = fmaf(j, 4.37113883e-8, t)
		t = fmaf(j, 1.71512451e-15, t)
		return t, int(j) & 3
	}
	b := math.Float32bits(ax)
	E := int(b>>23) - 150
	m := uint64(b&0x007fffff | 0x00800000)
	s := E - 1
	w, sh := (s+31)>>5, uint((s+31)&31)
	w0, w1, w2, w3 := twoOverPi[w], twoOverPi[w+1], twoOverPi[w+2], twoOverPi[w+3]
	if sh != 0 {
		w0 = w0<<sh | w1>>(32-sh)
		w1 = w1<<sh | w2>>(32-sh)
		w2 = w2<<sh | w3>>(32-sh)
	}
	acc := m * uint64(w2)
	acc = acc>>32 + m*uint64(w1)
	mid := uint32(acc)
	acc = acc>>32 + m*uint64(w0)
	hi := uint32(acc)
	q := int(hi >> 30)
	frac := int64((uint64(hi)<<32 | uint64(mid)) << 2)
	if frac < 0 {
		q++
	}
	t := float64(frac) * 8.515303950216386e-20
	if x < 0 {
		t = -t
		q = -q
	}
	return float32(t), q & 3
}

func sinKernelf(r float32) float32 {
	z := float32(r * r)
	p := float32(2.75573192e-6)
	p = fmaf(p, z, -1.98412698e-4)
	p = fmaf(p, z, 8.33333333e-3)
	p = fmaf(p, z, -1.66666667e-1)
	return fmaf(float32(p*z), r, r)
}

func cosKernelf(r float32) float32 {
	z := float32(r * r)
	p := float32(-2.75573192e-7)
	p = fmaf(p, z, 2.48015873e-5)
	p = fmaf(p, z, -1.38888889e-3)
	p = fmaf(p, z, 4.16666667e-2)
	p = fmaf(p, z, -0.5)
	return fmaf(p, z, 1)
}

func ksSinf(x float32) float32 {
	if x == 0 {
		return x
	}
	if x != x || math.IsInf(float64(x), 0) {
		return x - x
	}
	r, q := reducef(x)
	v := sinKernelf(r)
	if q&1 != 0 {
		v = cosKernelf(r)
	}
	if q&2 != 0 {
		return -v
	}
	return v
}

func ksCosf(x float32) float32 {
	if x != x || math.IsInf(float64(x), 0) {
		return x - x
	}
	r, q := reducef(x)
	v := cosKernelf(r)
	if q&1 != 0 {
		v = sinKernelf(r)
	}
	if (q+1)&2 != 0 {
		return -v
	}
	return v
}

func expm1Posf(t float32) float32 {
	j := rintf(float32(t * 1.44269502))
	r := fmaf(j, -0.693147182, t)
	r = fmaf(j, 1.90465421e-9, r)
	p := expm1Kernelf(r)
	s := pow2f(int(j))
	return fmaf(s, p, float32(s-1))
}

func ksTanhf(x float32) float32 {
	if x != x {
		return x + x
	}
	a := float32(math.Abs(float64(x)))
	var y float32
	switch {
	case a >= 9.01091290:
		y = 1
	case a < 0.55:
		e := expm1Posf(float32(2 * a))
		y = float32(e / float32(e+2))
	default:
		e := expm1Posf(float32(2 * a))
		y = float32(1 - float32(2/float32(e+2)))
	}
	return float32(math.Copysign(float64(y), float64(x)))
}

// ---- double ----

func pow2(k int) float64 { return math.Float64frombits(uint64(k+1023) << 52) }

func scale(p float64, j int) float64 {
	j1 := j / 2
	return float64(p*pow2(j1)) * pow2(j-j1)
}

func expm1Kernel(r float64) float64 {
	p := 1.6059043836821613e-10
	for _, c := range []float64{2.08767569878681e-09, 2.505210838544172e-08, 2.755731922398589e-07, 2.7557319223985893e-06,
		2.48015873015873e-05, 0.0001984126984126984, 0.001388888888888889, 0.008333333333333333, 0.041666666666666664,
		0.16666666666666666, 0.5} {
		p = math.FMA(p, r, c)
	}
	return math.FMA(float64(p*r), r, r)
}

func ksExp(x float64) float64 {
	if x != x {
		return x + x
	}
	if x > 709.782712893384 {
		return math.Inf(1)
	}
	if x < -745.1332191019412 {
		return 0
	}
	j := math.RoundToEven(float64(x * 1.4426950408889634))
	r := math.FMA(j, -0.6931471805599453, x)
	r = math.FMA(j, -2.3190468138462996e-17, r)
	p := float64(expm1Kernel(r) + 1)
	return scale(p, int(j))
}

func ksExp2(x float64) float64 {
	if x != x {
		return x + x
	}
	if x >= 1024 {
		return math.Inf(1)
	}
	if x < -1075 {
		return 0
	}
	j := math.RoundToEven(x)
	f := float64(x - j)
	r := math.FMA(f, 0.6931471805599453, float64(f*2.3190468138462996e-17))
	p := float64(expm1Kernel(r) + 1)
	return scale(p, int(j))
}

func logKernel(x float64) (float64, int) {
	b := math.Float64bits(x)
	k := 0
	if b < 0x0010000000000000 {
		b = math.Float64bits(float64(x * 18014398509481984.0))
		k = -54
	}
	k += int(b>>52) - 1023
	b = b&0x000fffffffffffff | 0x3ff0000000000000
	if b > 0x3ff6a09e667f3bcc {
		b -= 0x0010000000000000
		k++
	}
	f := float64(math.Float64frombits(b) - 1)
	s := float64(f / float64(2+f))
	z := float64(s * s)
	R := 0.08695652173913043
	for _, c := range []float64{0.09523809523809523, 0.10526315789473684, 0.11764705882352941, 0.13333333333333333,
		0.15384615384615385, 0.18181818181818182, 0.2222222222222222, 0.2857142857142857, 0.4, 0.6666666666666666} {
		R = math.FMA(R, z, c)
	}
	R = float64(R * z)
	return math.FMA(-s, float64(f-R), f), k
}

func logSpecial(x float64) (float64, bool) {
	switch {
	case x != x:
		return x + x, true
	case x < 0:
		return math.NaN(), true
	case x == 0:
		return math.Inf(-1), true
	case math.IsInf(x, 1):
		return x, true
	}
	return 0, false
}

func ksLog(x float64) float64 {
	if s, done := logSpecial(x); done {
		return s
	}
	l, e := logKernel(x)
	fe := float64(e)
	return math.FMA(fe, 0.6931471805599453, math.FMA(fe, 2.3190468138462996e-17, l))
}

func ksLog2(x float64) float64 {
	if s, done := logSpecial(x); done {
		return s
	}
	l, e := logKernel(x)
	return math.FMA(l, 1.4426950408889634, math.FMA(l, 2.0355273740931033e-17, float64(e)))
}

func ksLog10(x float64) float64 {
	if s, done := logSpecial(x); done {
		return s
	}
	l, e := logKernel(x)
	fe := float64(e)
	t := math.FMA(l, 0.4342944819032518, math.FMA(l, 1.098319650216765e-17, float64(fe*-2.8037281277851704e-18)))
	return math.FMA(fe, 0.3010299956639812, t)
}

func reduce(x float64) (float64, float64, int) {
	ax := math.Abs(x)
	if ax < 67108864.0 {
		j := math.RoundToEven(float64(x * 0.6366197723675814))
		t := math.FMA(j, -1.5707963267948966, x)
		t = math.FMA(j, -6.123233995736766e-17, t)
		t = math.FMA(j, 1.4973849048591698e-33, t)
		return t, 0, int(int64(j)) & 3
	}
	b := math.Float64bits(ax)
	E := int(b>>52) - 1075
	m := b&0x000fffffffffffff | 0x0010000000000000
	p := E - 1 + 31
	w, sh := p>>5, uint(p&31)
	var u [6]uint32
	for i := 0; i < 6; i++ {
		hi, lo := twoOverPi[w+5-i], twoOverPi[w+6-i]
		if sh != 0 {
			u[i] = hi<<sh | lo>>(32-sh)
		} else {
			u[i] = hi
		}
	}
	v0, v1 := uint64(uint32(m)), uint64(uint32(m>>32))
	var z [6]uint32
	carry := uint64(0)
	for i := 0; i < 6; i++ {
		t := uint64(u[i])*v0 + uint64(z[i]) + carry
		z[i], carry = uint32(t), t>>32
	}
	carry = 0
	for i := 0; i+1 < 6; i++ {
		t := uint64(u[i])*v1 + uint64(z[i+1]) + carry
		z[i+1], carry = uint32(t), t>>32
	}
	q := int(z[5] >> 30)
	H := uint64(z[5]&0x3fffffff)<<32 | uint64(z[4])
	M := uint64(z[3])<<32 | uint64(z[2])
	L := uint64(z[1])<<32 | uint64(z[0])
	neg := (H>>61)&1 == 1
	if neg {
		q++
		H = ^H & 0x3fffffffffffffff
		M = ^M
		L = ^L
		L++
		if L == 0 {
			M++
			if M == 0 {
				H++
			}
		}
	}
	lz := 0
	for H == 0 && lz < 128 {
		H, M, L = M, L, 0
		lz += 64
	}
	fh, fl := 0.0, 0.0
	if H != 0 {
		c := bits.LeadingZeros64(H)
		if c != 0 {
			H = H<<uint(c) | M>>uint(64-c)
			M = M<<uint(c) | L>>uint(64-c)
		}
		lz += c
		A := H >> 11
		B := H<<53 | M>>11
		fh = float64(float64(A) * pow2(-51-lz))
		fl = float64(float64(B) * pow2(-115-lz))
	}
	rh := float64(fh * 1.5707963267948966)
	rlo := float64(math.FMA(fh, 1.5707963267948966, -rh) + math.FMA(fh, 6.123233995736766e-17, float64(fl*1.5707963267948966)))
	h := float64(rh + rlo)
	rlo = float64(rlo - float64(h-rh))
	if neg != (x < 0) {
		h, rlo = -h, -rlo
	}
	if x < 0 {
		q = -q
	}
	return h, rlo, q & 3
}

func sinKernel(r float64) float64 {
	z := float64(r * r)
	p := 2.8114572543455206e-15
	for _, c := range []float64{-7.647163731819816e-13, 1.6059043836821613e-10, -2.505210838544172e-08,
		2.7557319223985893e-06, -0.0001984126984126984, 0.008333333333333333, -0.16666666666666666} {
		p = math.FMA(p, z, c)
	}
	return math.FMA(float64(p*z), r, r)
}

func cosKernel(r float64) float64 {
	z := float64(r * r)
	p := 4.779477332387385e-14
	for _, c := range []float64{-1.1470745597729725e-11, 2.08767569878681e-09, -2.755731922398589e-07,
		2.48015873015873e-05, -0.001388888888888889, 0.041666666666666664, -0.5, 1} {
		p = math.FMA(p, z, c)
	}
	return p
}

func ksSin(x float64) float64 {
	if x == 0 {
		return x
	}
	if x != x || math.IsInf(x, 0) {
		return x - x
	}
	r, rl, q := reduce(x)
	v := math.FMA(rl, math.FMA(float64(-0.5*r), r, 1), sinKernel(r))
	if q&1 != 0 {
		v = math.FMA(-rl, r, cosKernel(r))
	}
	if q&2 != 0 {
		return -v
	}
	return v
}

func ksCos(x float64) float64 {
	if x != x || math.IsInf(x, 0) {
		return x - x
	}
	r, rl, q := reduce(x)
	v := math.FMA(-rl, r, cosKernel(r))
	if q&1 != 0 {
		v = math.FMA(rl, math.FMA(float64(-0.5*r), r, 1), sinKernel(r))
	}
	if (q+1)&2 != 0 {
		return -v
	}
	return v
}

func expm1Pos(t float64) float64 {
	j := math.RoundToEven(float64(t * 1.4426950408889634))
	r := math.FMA(j, -0.6931471805599453, t)
	r = math.FMA(j, -2.3190468138462996e-17, r)
	p := expm1Kernel(r)
	s := pow2(int(j))
	return math.FMA(s, p, float64(s-1))
}

func ksTanh(x float64) float64 {
	if x != x {
		return x + x
	}
	a := math.Abs(x)
	var y float64
	switch {
	case a >= 19.06154746539849:
		y = 1
	case a < 0.55:
		e := expm1Pos(float64(2 * a))
		y = e / float64(e+2)
	default:
		e := expm1Pos(float64(2 * a))
		y = 1 - float64(2/float64(e+2))
	}
	return math.Copysign(y, x)
}

func powSpecial(x, y float64) (float64, bool, bool) {
	if y == 0 || x == 1 {
		return 1, true, false
	}
	if x != x || y != y {
		return x + y, true, false
	}
	ay := math.Abs(y)
	yint := math.Trunc(y) == y
	yodd := yint && ay < 9007199254740992.0 && math.Trunc(float64(y*0.5)) != float64(y*0.5)
	if math.IsInf(ay, 0) {
		ax := math.Abs(x)
		if ax == 1 {
			return 1, true, false
		}
		if (ax > 1) == (y > 0) {
			return math.Inf(1), true, false
		}
		return 0, true, false
	}
	if x == 0 {
		z := 0.0
		if y < 0 {
			z = math.Inf(1)
		}
		if yodd {
			return math.Copysign(z, x), true, false
		}
		return z, true, false
	}
	if math.IsInf(x, 0) {
		z := math.Inf(1)
		if y < 0 {
			z = 0
		}
		if x < 0 && yodd {
			return -z, true, false
		}
		return z, true, false
	}
	neg := false
	if x < 0 {
		if !yint {
			return math.NaN(), true, false
		}
		neg = yodd
	}
	return 0, false, neg
}

func logDD(x float64) (float64, float64) {
	b := math.Float64bits(x)
	k := 0
	if b < 0x0010000000000000 {
		b = math.Float64bits(float64(x * 18014398509481984.0))
		k = -54
	}
	k += int(b>>52) - 1023
	b = b&0x000fffffffffffff | 0x3ff0000000000000
	if b > 0x3ff6a09e667f3bcc {
		b -= 0x0010000000000000
		k++
	}
	m := math.Float64frombits(b)
	a := float64(m - 1)
	dh := float64(m + 1)
	bb := float64(dh - m)
	dl := float64(float64(m-float64(dh-bb)) + float64(1-bb))
	th := float64(a / dh)
	r := math.FMA(-th, dh, a)
	r = math.FMA(-th, dl, r)
	tl := float64(r / dh)
	z := float64(th * th)
	R := 0.08695652173913043
	for _, c := range []float64{0.09523809523809523, 0.10526315789473684, 0.11764705882352941, 0.13333333333333333,
		0.15384615384615385, 0.18181818181818182, 0.2222222222222222, 0.2857142857142857, 0.4, 0.6666666666666666} {
		R = math.FMA(R, z, c)
	}
	R = float64(R * z)
	hi := float64(2 * th)
	low := math.FMA(th, R, float64(2*tl))
	fe := float64(k)
	eh := float64(fe * 0.6931471805598903)
	el := float64(fe * 5.497923018708371e-14)
	s := float64(eh + hi)
	bb = float64(s - eh)
	err := float64(float64(eh-float64(s-bb)) + float64(hi-bb))
	l := float64(err + float64(low+el))
	h2 := float64(s + l)
	return h2, float64(l - float64(h2-s))
}

func ksPow(x, y float64) float64 {
	s, done, neg := powSpecial(x, y)
	if done {
		return s
	}
	lh, ll := logDD(math.Abs(x))
	ph := float64(y * lh)
	pl := float64(math.FMA(y, lh, -ph) + float64(y*ll))
	var v float64
	switch {
	case ph > 709.782712893384:
		v = math.Inf(1)
	case ph < -745.1332191019412:
		v = 0
	default:
		j := math.RoundToEven(float64(ph * 1.4426950408889634))
		r := math.FMA(j, -0.6931471805599453, ph)
		r = float64(r + pl)
		r = math.FMA(j, -2.3190468138462996e-17, r)
		v = scale(float64(expm1Kernel(r)+1), int(j))
	}
	if neg {
		return -v
	}
	return v
}

func ksPowf(x, y float32) float32 {
	s, done, neg := powSpecial(float64(x), float64(y))
	if done {
		return float32(s)
	}
	v := ksExp2(float64(float64(y) * ksLog2(math.Abs(float64(x)))))
	if neg {
		v = -v
	}
	return float32(v)
}

func ksTanf(x float32) float32 {
	if x == 0 {
		return x
	}
	d := float64(x)
	return float32(float64(ksSin(d) / ksCos(d)))
}

func ksExpm1f(x float32) float32 {
	switch {
	case x != x:
		return x + x
	case x > 89:
		return float32(math.Inf(1))
	case x < -20:
		return -1
	}
	return float32(expm1Pos(float64(x)))
}

func ksLog1pf(x float32) float32 {
	switch {
	case x != x:
		return x + x
	case x < -1:
		return float32(math.NaN())
	case x == -1:
		return float32(math.Inf(-1))
	case math.IsInf(float64(x), 1):
		return x
	}
	d := float64(x)
	if math.Abs(d) < 5.9604644775390625e-08 {
		return float32(math.FMA(float64(-0.5*d), d, d))
	}
	return float32(ksLog(float64(1 + d)))
}

func ksSinhf(x float32) float32 {
	if x != x {
		return x + x
	}
	a := math.Abs(float64(x))
	var y float64
	if a > 100.0 {
		y = math.Inf(1)
	} else {
		e := expm1Pos(a)
		y = float64(0.5 * float64(e+float64(e/float64(e+1))))
	}
	return float32(math.Copysign(y, float64(x)))
}

func ksCoshf(x float32) float32 {
	if x != x {
		return x + x
	}
	a := math.Abs(float64(x))
	if a > 100.0 {
		return float32(math.Inf(1))
	}
	e := ksExp(a)
	return float32(float64(0.5 * float64(e+float64(1/e))))
}

func ksHypotf(x, y float32) float32 {
	if math.IsInf(float64(x), 0) || math.IsInf(float64(y), 0) {
		return float32(math.Inf(1))
	}
	dx, dy := float64(x), float64(y)
	return float32(math.Sqrt(math.FMA(dx, dx, float64(dy*dy))))
}

// ulpErr32 is |got-ref| in units of the float32 spacing at ref.
func ksExp10f(x float32) float32 {
	if x != x {
		return x + x
	}
	if x > 38.6 {
		return float32(math.Inf(1))
	}
	if x < -46.0 {
		return 0
	}
	return float32(ksExp(float64(x) * 2.302585092994046))
}

func ulpErr32(got float32, ref float64) float64 {
	g := float64(got)
	if math.IsNaN(ref) || math.IsNaN(g) {
		if math.IsNaN(ref) && math.IsNaN(g) {
			return 0
		}
		return math.Inf(1)
	}
	if r32 := float32(ref); math.IsInf(float64(r32), 0) || math.IsInf(g, 0) {
		if float64(r32) == g {
			return 0
		}
		if math.IsInf(g, 0) && math.Abs(ref) >= math.MaxFloat32 {
			return 0
		}
		return math.Inf(1)
	}
	a := math.Abs(ref)
	var u float64
	if a < 0x1p-126 {
		u = 0x1p-149
	} else {
		_, e := math.Frexp(a)
		u = math.Ldexp(1, e-24)
	}
	return math.Abs(g-ref) / u
}

// ulpErr64 is |got-ref| in units of the float64 spacing at ref.
func ulpErr64(got, ref float64) float64 {
	if math.IsNaN(ref) || math.IsNaN(got) {
		if math.IsNaN(ref) && math.IsNaN(got) {
			return 0
		}
		return math.Inf(1)
	}
	if math.IsInf(ref, 0) || math.IsInf(got, 0) {
		if ref == got {
			return 0
		}
		return math.Inf(1)
	}
	a := math.Abs(ref)
	var u float64
	if a < 0x1p-1022 {
		u = 0x1p-1074
	} else {
		_, e := math.Frexp(a)
		u = math.Ldexp(1, e-53)
	}
	return math.Abs(got-ref) / u
}

// sample32 draws n float32 values from [lo, hi], half uniform, half uniform in log-magnitude.
func sample32(r *rand.Rand, n int, lo, hi float64) []float32 {
	var out []float32
	for _, v := range []float64{0, math.Copysign(0, -1), 1, -1, lo, hi, 0x1p-149, 0x1p-126, math.MaxFloat32, -math.MaxFloat32} {
		if v >= lo && v <= hi {
			out = append(out, float32(v))
		}
	}
	out = append(out, float32(math.NaN()))
	for i := 0; i < n; i++ {
		var v float64
		if i%2 == 0 {
			v = lo + (hi-lo)*r.Float64()
		} else {
			m := math.Max(math.Abs(lo), math.Abs(hi))
			v = math.Exp2(math.Log2(m) - 60*r.Float64())
			if lo < 0 && (hi <= 0 || r.IntN(2) == 0) {
				v = -v
			}
		}
		if v >= lo && v <= hi {
			out = append(out, float32(v))
		}
	}
	return out
}

func sample64(r *rand.Rand, n int, lo, hi float64) []float64 {
	var out []float64
	for _, v := range []float64{0, math.Copysign(0, -1), 1, -1, lo, hi, 0x1p-1074, 0x1p-1022, math.MaxFloat64, -math.MaxFloat64} {
		if v >= lo && v <= hi {
			out = append(out, v)
		}
	}
	out = append(out, math.NaN())
	for i := 0; i < n; i++ {
		var v float64
		if i%2 == 0 {
			v = lo + (hi-lo)*r.Float64()
		} else {
			m := math.Max(math.Abs(lo), math.Abs(hi))
			v = math.Exp2(math.Log2(m) - 200*r.Float64())
			if lo < 0 && (hi <= 0 || r.IntN(2) == 0) {
				v = -v
			}
		}
		if v >= lo && v <= hi {
			out = append(out, v)
		}
	}
	return out
}

// accuracyBounds are the maximum errors in ulp that doc.go states; the test fails if
// a measurement exceeds them.
var accuracyBounds = map[string]float64{
	"tanf": 0.51, "exp10f": 0.51, "expm1f": 0.51, "log1pf": 0.51, "sinhf": 0.51, "coshf": 0.51, "hypotf": 0.51,
	"expf": 1, "exp2f": 1, "logf": 0.51, "log2f": 0.51, "log10f": 0.51, "sinf": 1.5, "cosf": 1.5, "tanhf": 2.2, "powf": 0.51,
	"exp": 2, "exp2": 1, "log": 1, "log2": 1, "log10": 1, "sin": 2, "cos": 2, "tanh": 2, "pow": 1,
}

// powRef is x^y for y a multiple of 1/4, computed with 300-bit math/big arithmetic
// and rounded once to float64.
func powRef(x, y float64) float64 {
	const prec = 300
	q := int(y * 4) // y = q/4
	n, k := q/4, q%4
	if k < 0 {
		n, k = n-1, k+4
	}
	bx := new(big.Float).SetPrec(prec).SetFloat64(x)
	res := new(big.Float).SetPrec(prec).SetFloat64(1)
	base := new(big.Float).SetPrec(prec).Set(bx)
	e := n
	if e < 0 {
		base.Quo(new(big.Float).SetPrec(prec).SetFloat64(1), base)
		e = -e
	}
	for ; e > 0; e >>= 1 {
		if e&1 == 1 {
			res.Mul(res, base)
		}
		base.Mul(base, base)
	}
	r4 := new(big.Float).SetPrec(prec).Sqrt(new(big.Float).SetPrec(prec).Sqrt(bx))
	for ; k > 0; k-- {
		res.Mul(res, r4)
	}
	v, _ := res.Float64()
	return v
}

func TestAccuracy(t *testing.T) {
	t.Parallel() // CPU-bound and independent: runs beside the other long test of the package
	n := 200000
	if testing.Short() {
		n = 20000
	}
	r := rand.New(rand.NewPCG(1, 2))
	k := newConsts()
	lnRef := func(x float64) float64 { return k.log(x, false) }
	log10Ref := func(x float64) float64 { return k.log(x, true) }
	f32 := []struct {
		name   string
		f      func(float32) float32
		ref    func(float64) float64
		lo, hi float64
	}{
		{"expf", ksExpf, math.Exp, -110, 90},
		{"exp2f", ksExp2f, math.Exp2, -160, 130},
		{"logf", ksLogf, lnRef, 0, math.MaxFloat32},
		{"log2f", ksLog2f, math.Log2, 0, math.MaxFloat32},
		{"log10f", ksLog10f, log10Ref, 0, math.MaxFloat32},
		{"sinf", ksSinf, k.sin, -math.MaxFloat32, math.MaxFloat32},
		{"cosf", ksCosf, k.cos, -math.MaxFloat32, math.MaxFloat32},
		{"sinf", ksSinf, k.sin, -100, 100},
		{"cosf", ksCosf, k.cos, -100, 100},
		{"tanhf", ksTanhf, math.Tanh, -12, 12},
		{"tanf", ksTanf, func(x float64) float64 { return k.sin(x) / k.cos(x) }, -math.MaxFloat32, math.MaxFloat32},
		{"tanf", ksTanf, func(x float64) float64 { return k.sin(x) / k.cos(x) }, -10, 10},
		{"expm1f", ksExpm1f, math.Expm1, -30, 90},
		{"log1pf", ksLog1pf, math.Log1p, -1, math.MaxFloat32},
		{"sinhf", ksSinhf, math.Sinh, -100, 100},
		{"coshf", ksCoshf, math.Cosh, -100, 100},
		{"exp10f", ksExp10f, func(x float64) float64 { return math.Pow(10, x) }, -46, 38.6},
	}
	var report []string
	for _, c := range f32 {
		worst, at := 0.0, float32(0)
		xs := sample32(r, n, c.lo, c.hi)
		for _, x := range xs {
			if e := ulpErr32(c.f(x), c.ref(float64(x))); e > worst || math.IsNaN(e) {
				worst, at = e, x
			}
		}
		report = append(report, logLine(c.name, len(xs), c.lo, c.hi, worst, float64(at)))
		if worst > accuracyBounds[c.name] {
			t.Errorf("%s: max error %.3f ulp at %g exceeds the documented %g", c.name, worst, at, accuracyBounds[c.name])
		}
	}
	// hypotf over pairs of floats of any magnitude.
	{
		worst := 0.0
		xs, ys := sample32(r, n, -math.MaxFloat32, math.MaxFloat32), sample32(r, n, -math.MaxFloat32, math.MaxFloat32)
		m := min(len(xs), len(ys))
		for i := 0; i < m; i++ {
			if e := ulpErr32(ksHypotf(xs[i], ys[i]), math.Hypot(float64(xs[i]), float64(ys[i]))); e > worst {
				worst = e
			}
		}
		report = append(report, logLine("hypotf", m, -math.MaxFloat32, math.MaxFloat32, worst, 0))
		if worst > accuracyBounds["hypotf"] {
			t.Errorf("hypotf: max error %.3f ulp", worst)
		}
	}
	// powf: x in (0, 100], y in [-30, 30], plus negative x with integer y.
	{
		worst, wx, wy := 0.0, float32(0), float32(0)
		for i := 0; i < n; i++ {
			x := float32(100 * r.Float64())
			y := float32(60*r.Float64() - 30)
			if i%4 == 0 {
				x, y = -x, float32(math.Round(float64(y)))
			}
			if e := ulpErr32(ksPowf(x, y), math.Pow(float64(x), float64(y))); e > worst {
				worst, wx, wy = e, x, y
			}
		}
		report = append(report, logLine("powf", n, -100, 100, worst, float64(wx))+" y="+ftoa(float64(wy)))
		if worst > accuracyBounds["powf"] {
			t.Errorf("powf: max error %.3f ulp at %g^%g", worst, wx, wy)
		}
	}
	f64 := []struct {
		name   string
		f      func(float64) float64
		ref    func(float64) float64
		lo, hi float64
	}{
		{"exp", ksExp, k.exp, -750, 710},
		{"exp2", ksExp2, math.Exp2, -1080, 1025},
		{"log", ksLog, lnRef, 0, math.MaxFloat64},
		{"log2", ksLog2, math.Log2, 0, math.MaxFloat64},
		{"log10", ksLog10, log10Ref, 0, math.MaxFloat64},
		{"sin", ksSin, k.sin, -0x1p26, 0x1p26},
		{"cos", ksCos, k.cos, -0x1p26, 0x1p26},
		{"sin", ksSin, k.sin, -math.MaxFloat64, math.MaxFloat64},
		{"cos", ksCos, k.cos, -math.MaxFloat64, math.MaxFloat64},
		{"tanh", ksTanh, math.Tanh, -25, 25},
	}
	for _, c := range f64 {
		worst, at := 0.0, 0.0
		xs := sample64(r, n, c.lo, c.hi)
		for _, x := range xs {
			if e := ulpErr64(c.f(x), c.ref(x)); e > worst || math.IsNaN(e) {
				worst, at = e, x
			}
		}
		report = append(report, logLine(c.name, len(xs), c.lo, c.hi, worst, at))
		if worst > accuracyBounds[c.name] {
			t.Errorf("%s: max error %.3f ulp at %g exceeds the documented %g", c.name, worst, at, accuracyBounds[c.name])
		}
	}
	// pow (double): y a multiple of 1/4 in [-40, 40], so that math/big gives a
	// correctly rounded reference (x^n * sqrt(sqrt(x))^k); the algorithm does not
	// treat such y specially.
	{
		worst, wx, wy := 0.0, 0.0, 0.0
		m := n / 10
		for i := 0; i < m; i++ {
			x := math.Exp2(40*r.Float64() - 20)
			y := float64(r.IntN(321)-160) / 4
			if e := ulpErr64(ksPow(x, y), powRef(x, y)); e > worst {
				worst, wx, wy = e, x, y
			}
		}
		report = append(report, logLine("pow", m, 0x1p-20, 0x1p20, worst, wx)+" y="+ftoa(wy))
		if worst > accuracyBounds["pow"] {
			t.Errorf("pow: max error %.3f ulp at %g^%g", worst, wx, wy)
		}
	}
	t.Logf("measured maximum error (ulp):\n%s", strings.Join(report, "\n"))
}

func logLine(name string, n int, lo, hi, worst, at float64) string {
	return name + ": n=" + itoa(n) + " x in [" + ftoa(lo) + ", " + ftoa(hi) + "] max " + big.NewFloat(worst).Text('f', 3) + " ulp at x=" + ftoa(at)
}

func ftoa(v float64) string { return big.NewFloat(v).Text('g', 9) }

func itoa(n int) string { return big.NewInt(int64(n)).String() }

// TestTwoOverPiTable checks the Payne-Hanek table against 2/pi computed to 1400 bits
// with math/big (Machin's formula).
func TestTwoOverPiTable(t *testing.T) {
	c := newConsts()
	prec, pi := c.prec, c.pi
	x := new(big.Float).SetPrec(prec).Quo(big.NewFloat(2).SetPrec(prec), pi)
	for i := 1; i < len(twoOverPi); i++ {
		x.Mul(x, big.NewFloat(1<<32).SetPrec(prec))
		w, _ := x.Uint64()
		if uint32(w) != twoOverPi[i] {
			t.Errorf("2/pi word %d = %08X, table has %08X", i, w, twoOverPi[i])
		}
		x.Sub(x, new(big.Float).SetPrec(prec).SetUint64(w))
	}
}

// TestGoReplayMatchesPrelude guards against the Go replay drifting from the C: every
// numeric constant of the transcendental section must appear in this file too.
func TestGoReplayMatchesPrelude(t *testing.T) {
	_, lib := Prelude()
	start := strings.Index(lib, "single-precision transcendental")
	end := strings.Index(lib, "KS_NV float __nv_expf")
	if start < 0 || end < start {
		t.Fatal("markers not found in kernelscope_libdevice.h")
	}
	self, err := readSelf()
	if err != nil {
		t.Fatal(err)
	}
	for _, tok := range numberTokens(lib[start:end]) {
		if !strings.Contains(self, tok) {
			t.Errorf("constant %s of the prelude is not in mathref_test.go", tok)
		}
	}
}

func readSelf() (string, error) {
	b, err := os.ReadFile("mathref_test.go")
	return string(b), err
}

var numberRE = regexp.MustCompile(`0x[0-9a-fA-F]{6,}|[0-9]+\.[0-9]*(?:e[-+]?[0-9]+)?|[0-9]+e[-+]?[0-9]+`)

// numberTokens lists the non-integral decimal literals and long hex literals of C code,
// without C suffixes.
func numberTokens(c string) []string {
	var out []string
	c = regexp.MustCompile(`//[^\n]*`).ReplaceAllString(c, "")
	for _, tok := range numberRE.FindAllString(c, -1) {
		tok = strings.TrimRight(tok, "uUlLfF")
		if !strings.HasPrefix(tok, "0x") {
			v, err := strconv.ParseFloat(tok, 64)
			if err == nil && v == math.Trunc(v) && v < 1<<60 {
				continue
			}
		}
		out = append(out, tok)
	}
	return out
}

// consts holds pi, ln 2 and ln 10 to 1400 bits, computed by series with math/big:
// the references below reduce arguments with them because Go's math package is not
// accurate at the extremes (math.Sin of 3e38, math.Log of subnormals, math.Exp near
// overflow on amd64).
type consts struct {
	prec          uint
	pi, ln2, ln10 *big.Float
}

func newConsts() consts {
	prec := uint(1400)
	nf := func(v float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(v) }
	// series returns sum over k of sign^k x^(2k+1)/(2k+1) for x = 1/n: atan (sign -1) or atanh (sign +1).
	series := func(n int64, sign int) *big.Float {
		x := new(big.Float).SetPrec(prec).Quo(nf(1), nf(float64(n)))
		x2 := new(big.Float).SetPrec(prec).Mul(x, x)
		sum := new(big.Float).SetPrec(prec).Set(x)
		term := new(big.Float).SetPrec(prec).Set(x)
		for k := int64(1); k < 330; k++ {
			term.Mul(term, x2)
			d := new(big.Float).SetPrec(prec).Quo(term, nf(float64(2*k+1)))
			if sign < 0 && k%2 == 1 {
				sum.Sub(sum, d)
			} else {
				sum.Add(sum, d)
			}
		}
		return sum
	}
	pi := new(big.Float).SetPrec(prec).Mul(nf(16), series(5, -1))
	pi.Sub(pi, new(big.Float).SetPrec(prec).Mul(nf(4), series(239, -1)))
	ln2 := new(big.Float).SetPrec(prec).Mul(nf(2), series(3, 1))
	ln10 := new(big.Float).SetPrec(prec).Mul(nf(3), ln2)
	ln10.Add(ln10, new(big.Float).SetPrec(prec).Mul(nf(2), series(9, 1)))
	return consts{prec: prec, pi: pi, ln2: ln2, ln10: ln10}
}

func (c consts) f(v float64) *big.Float { return new(big.Float).SetPrec(c.prec).SetFloat64(v) }

// reduce returns r = x - k*period (k the nearest integer to x/period) and k.
func (c consts) reduce(x float64, period *big.Float) (float64, *big.Int) {
	q := new(big.Float).SetPrec(c.prec).Quo(c.f(x), period)
	q.Add(q, c.f(0.5))
	k, _ := q.Int(nil)
	if q.Sign() < 0 && !q.IsInt() {
		k.Sub(k, big.NewInt(1))
	}
	// q.Int truncates toward zero: floor(x/period + 0.5) for negatives needs the fix above.
	kp := new(big.Float).SetPrec(c.prec).SetInt(k)
	kp.Mul(kp, period)
	r, _ := new(big.Float).SetPrec(c.prec).Sub(c.f(x), kp).Float64()
	return r, k
}

func (c consts) sin(x float64) float64 { return c.sincos(x, 0) }
func (c consts) cos(x float64) float64 { return c.sincos(x, 1) }

func (c consts) sincos(x float64, shift int64) float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return math.NaN()
	}
	if x == 0 && shift == 0 {
		return x
	}
	if math.Abs(x) < 0x1p20 {
		if shift == 0 {
			return math.Sin(x)
		}
		return math.Cos(x)
	}
	half := new(big.Float).SetPrec(c.prec).Quo(c.pi, c.f(2))
	r, k := c.reduce(x, half)
	q := new(big.Int).Add(k, big.NewInt(shift))
	q.Mod(q, big.NewInt(4))
	switch q.Int64() {
	case 0:
		return math.Sin(r)
	case 1:
		return math.Cos(r)
	case 2:
		return -math.Sin(r)
	}
	return -math.Cos(r)
}

func (c consts) exp(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) < 700 {
		return math.Exp(x)
	}
	r, k := c.reduce(x, c.ln2)
	if !k.IsInt64() || k.Int64() > 2000 {
		return math.Inf(1)
	}
	if k.Int64() < -2000 {
		return 0
	}
	return math.Ldexp(math.Exp(r), int(k.Int64()))
}

// log returns ln x, or log10 x when ten is set.
func (c consts) log(x float64, ten bool) float64 {
	if math.IsNaN(x) || x <= 0 || math.IsInf(x, 0) {
		if ten {
			return math.Log10(x)
		}
		return math.Log(x)
	}
	m, e := math.Frexp(x)
	if m < math.Sqrt2/2 {
		m, e = m*2, e-1
	}
	l := c.f(math.Log1p(m - 1))
	l.Add(l, new(big.Float).SetPrec(c.prec).Mul(c.f(float64(e)), c.ln2))
	if ten {
		l.Quo(l, c.ln10)
	}
	v, _ := l.Float64()
	return v
}
