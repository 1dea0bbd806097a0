package toolchain_test

import (
	"encoding/binary"
	"math"
	"math/big"
	"testing"
)

const halfSrc = `#include <cuda_fp16.h>
#include <cuda_bf16.h>
__global__ void half_ops(const float *a, const float *b, const float *c, unsigned short *o, float *f) {
  int i = threadIdx.x;
  __half x = __float2half(a[i]), y = __float2half_rn(b[i]), z = __float2half(c[i]);
  unsigned short *p = o + 16 * i;
  p[0] = __half_as_ushort(x);
  p[1] = __half_as_ushort(__hadd(x, y));
  p[2] = __half_as_ushort(__hsub(x, y));
  p[3] = __half_as_ushort(__hmul(x, y));
  p[4] = __half_as_ushort(__hfma(x, y, z));
  p[5] = __half_as_ushort(x * y + z);
  __half2 v = __floats2half2_rn(a[i], b[i]), w = __halves2half2(z, x);
  __half2 s = __hadd2(v, w), m = __hmul2(v, w), q = __hfma2(v, w, s);
  p[6] = __half_as_ushort(__low2half(s)); p[7] = __half_as_ushort(__high2half(s));
  p[8] = __half_as_ushort(m.x); p[9] = __half_as_ushort(m.y);
  p[10] = __half_as_ushort(q.x); p[11] = __half_as_ushort(q.y);
  p[12] = __half_as_ushort(__hneg(x)); p[13] = __half_as_ushort(__habs(y));
  p[14] = __half_as_ushort(__hmax(x, y)); p[15] = (x < y) + 2 * (x == x) + 4 * __hisnan(x);
  f[4 * i] = __half2float(x) + __low2float(v) * 0.0f; f[4 * i + 1] = __high2float(v); f[4 * i + 2] = (float)(x + y); f[4 * i + 3] = __half2float(hsqrt(__habs(x)));
}
__global__ void bf16_ops(const float *a, const float *b, const float *c, unsigned short *o, float *f) {
  int i = threadIdx.x;
  __nv_bfloat16 x = __float2bfloat16(a[i]), y = __float2bfloat16_rn(b[i]), z = __float2bfloat16(c[i]);
  unsigned short *p = o + 16 * i;
  p[0] = __bfloat16_as_ushort(x);
  p[1] = __bfloat16_as_ushort(__hadd(x, y));
  p[2] = __bfloat16_as_ushort(__hsub(x, y));
  p[3] = __bfloat16_as_ushort(__hmul(x, y));
  p[4] = __bfloat16_as_ushort(__hfma(x, y, z));
  p[5] = __bfloat16_as_ushort(x * y + z);
  __nv_bfloat162 v = __floats2bfloat162_rn(a[i], b[i]), w = __halves2bfloat162(z, x);
  __nv_bfloat162 s = __hadd2(v, w), m = __hmul2(v, w), q = __hfma2(v, w, s);
  p[6] = __bfloat16_as_ushort(s.x); p[7] = __bfloat16_as_ushort(s.y);
  p[8] = __bfloat16_as_ushort(m.x); p[9] = __bfloat16_as_ushort(m.y);
  p[10] = __bfloat16_as_ushort(q.x); p[11] = __bfloat16_as_ushort(q.y);
  p[12] = __bfloat16_as_ushort(__hneg(x)); p[13] = __bfloat16_as_ushort(__habs(y));
  p[14] = __bfloat16_as_ushort(__hmax(x, y)); p[15] = (x < y) + 2 * (x == x) + 4 * __hisnan(x);
  f[4 * i] = __bfloat162float(x); f[4 * i + 1] = __high2float(v); f[4 * i + 2] = (float)(x + y); f[4 * i + 3] = __bfloat162float(hsqrt(__habs(x)));
}
`

// roundSmall rounds the exact value x to a binary format with prec significand bits,
// smallest normal exponent emin and largest finite value maxv, to nearest even.
func roundSmall(x *big.Float, prec uint, emin int, maxv float64) float64 {
	if x.Sign() == 0 {
		if x.Signbit() {
			return math.Copysign(0, -1)
		}
		return 0
	}
	if x.MantExp(nil)-1 < emin { // subnormal: a multiple of 2^(emin-prec+1)
		q := new(big.Float).SetMantExp(x, -(emin - int(prec) + 1))
		f, _ := q.Float64()
		f = math.RoundToEven(f)
		v := math.Ldexp(f, emin-int(prec)+1)
		if v == 0 && x.Signbit() {
			return math.Copysign(0, -1)
		}
		return v
	}
	v, _ := new(big.Float).SetPrec(prec).SetMode(big.ToNearestEven).Set(x).Float64()
	if math.Abs(v) > maxv {
		return math.Inf(x.Sign())
	}
	return v
}

func toHalf(x *big.Float) float64 { return roundSmall(x, 11, -14, 65504) }
func toBF16(x *big.Float) float64 { return roundSmall(x, 8, -126, math.MaxFloat32) }

func exact(v float64) *big.Float     { return new(big.Float).SetPrec(400).SetFloat64(v) }
func add(a, b float64) *big.Float    { return new(big.Float).SetPrec(400).Add(exact(a), exact(b)) }
func sub(a, b float64) *big.Float    { return new(big.Float).SetPrec(400).Sub(exact(a), exact(b)) }
func mul(a, b float64) *big.Float    { return new(big.Float).SetPrec(400).Mul(exact(a), exact(b)) }
func fma(a, b, c float64) *big.Float { return new(big.Float).SetPrec(400).Add(mul(a, b), exact(c)) }

func halfBits(v float64) uint16 {
	b := math.Float64bits(v)
	sign := uint16(b>>63) << 15
	a := math.Abs(v)
	switch {
	case math.IsInf(a, 0):
		return sign | 0x7c00
	case a == 0:
		return sign
	case a < math.Ldexp(1, -14):
		return sign | uint16(a*math.Ldexp(1, 24))
	}
	e := math.Ilogb(a)
	m := a/math.Ldexp(1, e) - 1
	return sign | uint16(e+15)<<10 | uint16(m*1024)
}

func bf16Bits(v float64) uint16 { return uint16(math.Float32bits(float32(v)) >> 16) }

// TestHalfAndBFloat16: __half / __half2 / __nv_bfloat16 / __nv_bfloat162
// conversions, arithmetic, comparisons and a math function, bit for bit against
// exact arithmetic rounded once in Go, on sm_75 (integer and float fallbacks),
// sm_80 and sm_90 (the bf16 add/mul instructions).
func TestHalfAndBFloat16(t *testing.T) {
	const n = 64
	for _, arch := range []string{"sm_75", "sm_80", "sm_90"} {
		for _, kind := range []string{"half", "bf16"} {
			rep := mustRunArch(t, halfSrc, kind+"_ops", arch, 1, n, randBuf(n, -6, 6, 1), randBuf(n, -6, 6, 2), randBuf(n, -3, 3, 3),
				buf("zeros", 16*n, "u16"), buf("zeros", 4*n, "f32"))
			a, b, c := f32s(output(t, rep, 0)), f32s(output(t, rep, 1)), f32s(output(t, rep, 2))
			o := output(t, rep, 3)
			f := f32s(output(t, rep, 4))
			round, bitsOf := toHalf, halfBits
			if kind == "bf16" {
				round, bitsOf = toBF16, bf16Bits
			}
			for i := 0; i < n; i++ {
				x, y, z := round(exact(float64(a[i]))), round(exact(float64(b[i]))), round(exact(float64(c[i])))
				s0, s1 := round(add(x, z)), round(add(y, x))
				m0, m1 := round(mul(x, z)), round(mul(y, x))
				lt := 0
				if x < y {
					lt = 1
				}
				want := []float64{x, round(add(x, y)), round(sub(x, y)), round(mul(x, y)), round(fma(x, y, z)),
					round(add(round(mul(x, y)), z)), s0, s1, m0, m1, round(fma(x, z, s0)), round(fma(y, x, s1)),
					-x, math.Abs(y), math.Max(x, y)}
				if kind == "half" {
					// x * y + z on __half contracts to one fma.rn.f16, as nvcc's mul.f16 +
					// add.f16 do under ptxas on the H200 (testdata/realcuda/features fp16_ops r[11])
					want[5] = round(fma(x, y, z))
				}
				for k, w := range want {
					got := binary.LittleEndian.Uint16(o[2*(16*i+k):])
					if got != bitsOf(w) {
						t.Errorf("%s %s thread %d field %d = %#04x, want %#04x (%v)", arch, kind, i, k, got, bitsOf(w), w)
					}
				}
				if got := binary.LittleEndian.Uint16(o[2*(16*i+15):]); got != uint16(lt+2) {
					t.Errorf("%s %s thread %d comparisons = %d, want %d", arch, kind, i, got, lt+2)
				}
				sq := round(exact(float64(float32(math.Sqrt(math.Abs(x))))))
				for k, w := range []float64{x, y, float64(float32(round(add(x, y)))), sq} {
					if float64(f[4*i+k]) != w {
						t.Errorf("%s %s thread %d float %d = %v, want %v", arch, kind, i, k, f[4*i+k], w)
					}
				}
			}
		}
	}
}
