// KernelScope: bfloat16 (__nv_bfloat16, __nv_bfloat162) as CUDA's <cuda_bf16.h>
// names it, written for KernelScope from the CUDA Math API's "Bfloat16 Precision
// Intrinsics". On sm_80 and later conversions and arithmetic are the PTX bf16
// instructions nvcc uses (cvt.rn.bf16.f32, fma.rn.bf16 with 1.0 or -0.0 for add and
// mul, add.rn.bf16 / mul.rn.bf16 on sm_90, fma.rn.bf16x2, ...); bf16 -> float is a
// 16-bit shift. Before sm_80 the same roundings are done with integer operations.
#pragma clang system_header
#ifndef KERNELSCOPE_CUDA_BF16_H
#define KERNELSCOPE_CUDA_BF16_H
#include "kernelscope_names_push.h"
#include "cuda_fp16.h"

#define KS_B static __device__ __forceinline__

struct __nv_bfloat16_raw {
  unsigned short x;
};
struct __nv_bfloat162_raw {
  unsigned short x, y;
};
struct __align__(2) __nv_bfloat16 {
  unsigned short __x;
  __nv_bfloat16() = default;
  __host__ __device__ constexpr __nv_bfloat16(const __nv_bfloat16_raw &r) : __x(r.x) {}
  __device__ __nv_bfloat16(float f);
  __device__ __nv_bfloat16(double d);
  __device__ __nv_bfloat16(int v);
  __device__ operator float() const;
  __host__ __device__ constexpr operator __nv_bfloat16_raw() const { return __nv_bfloat16_raw{__x}; }
  __device__ __nv_bfloat16 &operator=(float f);
};
struct __align__(4) __nv_bfloat162 {
  __nv_bfloat16 x, y;
  __nv_bfloat162() = default;
  __host__ __device__ constexpr __nv_bfloat162(const __nv_bfloat16 &a, const __nv_bfloat16 &b) : x(a), y(b) {}
  __host__ __device__ constexpr __nv_bfloat162(const __nv_bfloat162_raw &r)
      : x(__nv_bfloat16_raw{r.x}), y(__nv_bfloat16_raw{r.y}) {}
};
typedef struct __nv_bfloat16 nv_bfloat16;
typedef struct __nv_bfloat162 nv_bfloat162;

KS_B unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) { return h.__x; }
KS_B short __bfloat16_as_short(__nv_bfloat16 h) { return (short)h.__x; }
KS_B __nv_bfloat16 __ushort_as_bfloat16(unsigned short u) { return __nv_bfloat16(__nv_bfloat16_raw{u}); }
KS_B __nv_bfloat16 __short_as_bfloat16(short s) { return __nv_bfloat16(__nv_bfloat16_raw{(unsigned short)s}); }
KS_B unsigned int __ks_b2u(__nv_bfloat162 h) { return (unsigned int)h.x.__x | ((unsigned int)h.y.__x << 16); }
KS_B __nv_bfloat162 __ks_u2b(unsigned int u) {
  return __nv_bfloat162(__nv_bfloat162_raw{(unsigned short)u, (unsigned short)(u >> 16)});
}

// ---- conversions ----
KS_B float __bfloat162float(__nv_bfloat16 h) { return __builtin_bit_cast(float, (unsigned int)h.__x << 16); }
// float -> bf16 with integer operations: round to nearest even (NaN stays a quiet NaN).
KS_B unsigned short __ks_f2bf_rn_int(float f) {
  unsigned int u = __builtin_bit_cast(unsigned int, f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (unsigned short)((u >> 16) | 0x40u);
  return (unsigned short)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}
KS_B __nv_bfloat16 __float2bfloat16_rn(float f) {
#if __CUDA_ARCH__ >= 800
  unsigned short r;
  asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(r) : "f"(f));
  return __ushort_as_bfloat16(r);
#else
  return __ushort_as_bfloat16(__ks_f2bf_rn_int(f));
#endif
}
KS_B __nv_bfloat16 __float2bfloat16(float f) { return __float2bfloat16_rn(f); }
KS_B __nv_bfloat16 __float2bfloat16_rz(float f) {
  unsigned int u = __builtin_bit_cast(unsigned int, f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return __ushort_as_bfloat16((unsigned short)((u >> 16) | 0x40u));
  return __ushort_as_bfloat16((unsigned short)(u >> 16));
}
// __double2bfloat16 rounds once, as CUDA's header does: cvt.rn.bf16.f64 on sm_90 (what
// nvcc emits there; the H200 gives 0x7fc0 for the default NaN), otherwise round to float
// with round-to-odd (truncate, then set the last bit when inexact) so the rounding to
// bf16 that follows is the one rounding of d.
KS_B __nv_bfloat16 __double2bfloat16(double d) {
#if __CUDA_ARCH__ >= 900
  unsigned short r;
  asm("cvt.rn.bf16.f64 %0, %1;" : "=h"(r) : "d"(d));
  return __ushort_as_bfloat16(r);
#else
  if (d != d) return __float2bfloat16_rn((float)d);
  float f = __double2float_rz(d);
  unsigned int u = __float_as_uint(f);
  if ((double)f != d && (u & 0x7fffffffu) < 0x7f800000u) u |= 1u;
  return __float2bfloat16_rn(__uint_as_float(u));
#endif
}
KS_B __nv_bfloat16 __int2bfloat16_rn(int v) { return __float2bfloat16_rn((float)v); }
KS_B int __bfloat162int_rz(__nv_bfloat16 h) { return (int)__bfloat162float(h); }
KS_B int __bfloat162int_rn(__nv_bfloat16 h) { return __float2int_rn(__bfloat162float(h)); }
__device__ inline __nv_bfloat16::__nv_bfloat16(float f) : __x(__float2bfloat16_rn(f).__x) {}
__device__ inline __nv_bfloat16::__nv_bfloat16(double d) : __x(__double2bfloat16(d).__x) {}
__device__ inline __nv_bfloat16::__nv_bfloat16(int v) : __x(__int2bfloat16_rn(v).__x) {}
__device__ inline __nv_bfloat16::operator float() const { return __bfloat162float(*this); }
__device__ inline __nv_bfloat16 &__nv_bfloat16::operator=(float f) {
  __x = __float2bfloat16_rn(f).__x;
  return *this;
}
KS_B __nv_bfloat162 __floats2bfloat162_rn(float lo, float hi) {
#if __CUDA_ARCH__ >= 800
  unsigned int r;
  asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo));
  return __ks_u2b(r);
#else
  return __nv_bfloat162(__float2bfloat16_rn(lo), __float2bfloat16_rn(hi));
#endif
}
KS_B __nv_bfloat162 __float22bfloat162_rn(float2 f) { return __floats2bfloat162_rn(f.x, f.y); }
KS_B __nv_bfloat162 __float2bfloat162_rn(float f) { return __floats2bfloat162_rn(f, f); }
KS_B float2 __bfloat1622float2(__nv_bfloat162 h) { return make_float2(__bfloat162float(h.x), __bfloat162float(h.y)); }
KS_B float __low2float(__nv_bfloat162 h) { return __bfloat162float(h.x); }
KS_B float __high2float(__nv_bfloat162 h) { return __bfloat162float(h.y); }
KS_B __nv_bfloat16 __low2bfloat16(__nv_bfloat162 h) { return h.x; }
KS_B __nv_bfloat16 __high2bfloat16(__nv_bfloat162 h) { return h.y; }
KS_B __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 lo, __nv_bfloat16 hi) { return __nv_bfloat162(lo, hi); }
KS_B __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 h) { return __nv_bfloat162(h, h); }
KS_B __nv_bfloat162 make_bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat162(a, b); }
KS_B __nv_bfloat162 __lowhigh2highlow(__nv_bfloat162 h) { return __nv_bfloat162(h.y, h.x); }

// ---- arithmetic ----
#if __CUDA_ARCH__ >= 800
KS_B __nv_bfloat16 __hfma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) {
  unsigned short r;
  asm("fma.rn.bf16 %0, %1, %2, %3;" : "=h"(r) : "h"(a.__x), "h"(b.__x), "h"(c.__x));
  return __ushort_as_bfloat16(r);
}
KS_B __nv_bfloat162 __hfma2(__nv_bfloat162 a, __nv_bfloat162 b, __nv_bfloat162 c) {
  unsigned int r;
  asm("fma.rn.bf16x2 %0, %1, %2, %3;" : "=r"(r) : "r"(__ks_b2u(a)), "r"(__ks_b2u(b)), "r"(__ks_b2u(c)));
  return __ks_u2b(r);
}
#else
KS_B __nv_bfloat16 __hfma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) {
  // Before sm_80 (no bf16 fma instruction): a*b + c in double, rounded to float and
  // then to bf16; this double rounding can differ from fma.rn.bf16 in rare ties.
  double p = (double)__bfloat162float(a) * (double)__bfloat162float(b) + (double)__bfloat162float(c);
  return __float2bfloat16_rn((float)p);
}
KS_B __nv_bfloat162 __hfma2(__nv_bfloat162 a, __nv_bfloat162 b, __nv_bfloat162 c) {
  return __nv_bfloat162(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
#endif
#if __CUDA_ARCH__ >= 900
#define KS_B_BIN(NAME, NAME2, INS)                                                \
  KS_B __nv_bfloat16 NAME(__nv_bfloat16 a, __nv_bfloat16 b) {                     \
    unsigned short r;                                                             \
    asm(INS ".bf16 %0, %1, %2;" : "=h"(r) : "h"(a.__x), "h"(b.__x));              \
    return __ushort_as_bfloat16(r);                                               \
  }                                                                               \
  KS_B __nv_bfloat162 NAME2(__nv_bfloat162 a, __nv_bfloat162 b) {                 \
    unsigned int r;                                                               \
    asm(INS ".bf16x2 %0, %1, %2;" : "=r"(r) : "r"(__ks_b2u(a)), "r"(__ks_b2u(b)));\
    return __ks_u2b(r);                                                           \
  }
KS_B_BIN(__hadd, __hadd2, "add.rn")
KS_B_BIN(__hsub, __hsub2, "sub.rn")
KS_B_BIN(__hmul, __hmul2, "mul.rn")
#undef KS_B_BIN
#else
// a + b = fma(a, 1, b); a - b = fma(b, -1, a); a * b = fma(a, b, -0): exact forms.
KS_B __nv_bfloat16 __hadd(__nv_bfloat16 a, __nv_bfloat16 b) { return __hfma(a, __ushort_as_bfloat16(0x3f80), b); }
KS_B __nv_bfloat16 __hsub(__nv_bfloat16 a, __nv_bfloat16 b) { return __hfma(b, __ushort_as_bfloat16(0xbf80), a); }
KS_B __nv_bfloat16 __hmul(__nv_bfloat16 a, __nv_bfloat16 b) { return __hfma(a, b, __ushort_as_bfloat16(0x8000)); }
KS_B __nv_bfloat162 __hadd2(__nv_bfloat162 a, __nv_bfloat162 b) { return __hfma2(a, __ks_u2b(0x3f803f80u), b); }
KS_B __nv_bfloat162 __hsub2(__nv_bfloat162 a, __nv_bfloat162 b) { return __hfma2(b, __ks_u2b(0xbf80bf80u), a); }
KS_B __nv_bfloat162 __hmul2(__nv_bfloat162 a, __nv_bfloat162 b) { return __hfma2(a, b, __ks_u2b(0x80008000u)); }
#endif
KS_B __nv_bfloat16 __hdiv(__nv_bfloat16 a, __nv_bfloat16 b) { return __float2bfloat16_rn(__nvvm_reflect("__CUDA_FTZ") ? __nvvm_div_rn_ftz_f(__bfloat162float(a), __bfloat162float(b)) : __nvvm_div_rn_f(__bfloat162float(a), __bfloat162float(b))); }
KS_B __nv_bfloat162 __h2div(__nv_bfloat162 a, __nv_bfloat162 b) { return __nv_bfloat162(__hdiv(a.x, b.x), __hdiv(a.y, b.y)); }
KS_B __nv_bfloat16 __hneg(__nv_bfloat16 a) { return __ushort_as_bfloat16(a.__x ^ 0x8000u); }
KS_B __nv_bfloat162 __hneg2(__nv_bfloat162 a) { return __ks_u2b(__ks_b2u(a) ^ 0x80008000u); }
KS_B __nv_bfloat16 __habs(__nv_bfloat16 a) { return __ushort_as_bfloat16(a.__x & 0x7fffu); }
KS_B __nv_bfloat162 __habs2(__nv_bfloat162 a) { return __ks_u2b(__ks_b2u(a) & 0x7fff7fffu); }
KS_B __nv_bfloat16 __hmax(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __float2bfloat16_rn(__builtin_fmaxf(__bfloat162float(a), __bfloat162float(b)));
}
KS_B __nv_bfloat16 __hmin(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __float2bfloat16_rn(__builtin_fminf(__bfloat162float(a), __bfloat162float(b)));
}
KS_B __nv_bfloat162 __hmax2(__nv_bfloat162 a, __nv_bfloat162 b) { return __nv_bfloat162(__hmax(a.x, b.x), __hmax(a.y, b.y)); }
KS_B __nv_bfloat162 __hmin2(__nv_bfloat162 a, __nv_bfloat162 b) { return __nv_bfloat162(__hmin(a.x, b.x), __hmin(a.y, b.y)); }

#define KS_B_CMP(NAME, OP) \
  KS_B bool NAME(__nv_bfloat16 a, __nv_bfloat16 b) { return __bfloat162float(a) OP __bfloat162float(b); }
KS_B_CMP(__heq, ==)
KS_B_CMP(__hne, !=)
KS_B_CMP(__hlt, <)
KS_B_CMP(__hle, <=)
KS_B_CMP(__hgt, >)
KS_B_CMP(__hge, >=)
#undef KS_B_CMP
KS_B bool __hisnan(__nv_bfloat16 a) { return (a.__x & 0x7fffu) > 0x7f80u; }
KS_B int __hisinf(__nv_bfloat16 a) { return a.__x == 0x7f80u ? 1 : a.__x == 0xff80u ? -1 : 0; }

#define KS_B_MATH(NAME, F) \
  KS_B __nv_bfloat16 NAME(__nv_bfloat16 a) { return __float2bfloat16_rn(F(__bfloat162float(a))); }
KS_B_MATH(hsqrt, sqrtf)
KS_B_MATH(hrsqrt, rsqrtf)
KS_B_MATH(hexp, expf)
KS_B_MATH(hexp2, exp2f)
KS_B_MATH(hlog, logf)
KS_B_MATH(hlog2, log2f)
KS_B_MATH(hsin, sinf)
KS_B_MATH(hcos, cosf)
KS_B_MATH(htanh, tanhf)
KS_B_MATH(hfloor, floorf)
KS_B_MATH(hceil, ceilf)
KS_B_MATH(htrunc, truncf)
KS_B_MATH(hrint, rintf)
#undef KS_B_MATH

KS_B __nv_bfloat16 operator+(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hadd(a, b); }
KS_B __nv_bfloat16 operator-(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hsub(a, b); }
KS_B __nv_bfloat16 operator*(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hmul(a, b); }
KS_B __nv_bfloat16 operator/(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hdiv(a, b); }
KS_B __nv_bfloat16 &operator+=(__nv_bfloat16 &a, const __nv_bfloat16 &b) { return a = __hadd(a, b); }
KS_B __nv_bfloat16 &operator-=(__nv_bfloat16 &a, const __nv_bfloat16 &b) { return a = __hsub(a, b); }
KS_B __nv_bfloat16 &operator*=(__nv_bfloat16 &a, const __nv_bfloat16 &b) { return a = __hmul(a, b); }
KS_B __nv_bfloat16 &operator/=(__nv_bfloat16 &a, const __nv_bfloat16 &b) { return a = __hdiv(a, b); }
KS_B __nv_bfloat16 operator-(const __nv_bfloat16 &a) { return __hneg(a); }
KS_B bool operator==(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __heq(a, b); }
KS_B bool operator!=(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hne(a, b); }
KS_B bool operator<(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hlt(a, b); }
KS_B bool operator<=(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hle(a, b); }
KS_B bool operator>(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hgt(a, b); }
KS_B bool operator>=(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hge(a, b); }
KS_B __nv_bfloat162 operator+(const __nv_bfloat162 &a, const __nv_bfloat162 &b) { return __hadd2(a, b); }
KS_B __nv_bfloat162 operator-(const __nv_bfloat162 &a, const __nv_bfloat162 &b) { return __hsub2(a, b); }
KS_B __nv_bfloat162 operator*(const __nv_bfloat162 &a, const __nv_bfloat162 &b) { return __hmul2(a, b); }
KS_B __nv_bfloat162 &operator+=(__nv_bfloat162 &a, const __nv_bfloat162 &b) { return a = __hadd2(a, b); }
KS_B __nv_bfloat162 &operator*=(__nv_bfloat162 &a, const __nv_bfloat162 &b) { return a = __hmul2(a, b); }

#define KS_B_SHFL(NAME, ARG)                                                                          \
  KS_B __nv_bfloat16 NAME(unsigned int m, __nv_bfloat16 v, ARG a, int w = warpSize) {                 \
    return __ushort_as_bfloat16((unsigned short)NAME(m, (unsigned int)v.__x, a, w));                  \
  }                                                                                                   \
  KS_B __nv_bfloat162 NAME(unsigned int m, __nv_bfloat162 v, ARG a, int w = warpSize) { return __ks_u2b(NAME(m, __ks_b2u(v), a, w)); }
KS_B_SHFL(__shfl_sync, int)
KS_B_SHFL(__shfl_up_sync, unsigned int)
KS_B_SHFL(__shfl_down_sync, unsigned int)
KS_B_SHFL(__shfl_xor_sync, int)
#undef KS_B_SHFL
KS_B __nv_bfloat16 __ldg(const __nv_bfloat16 *p) { return __ushort_as_bfloat16(__ldg((const unsigned short *)p)); }

#undef KS_B
#include "kernelscope_names_pop.h"
#endif // KERNELSCOPE_CUDA_BF16_H
