// KernelScope: half precision (__half, __half2) as CUDA's <cuda_fp16.h> names it,
// written for KernelScope from the CUDA Math API's "Half Precision Intrinsics".
// Conversions and arithmetic are the PTX f16 / f16x2 instructions nvcc uses
// (cvt.rn.f16.f32, cvt.f32.f16, add.f16, mul.f16, fma.rn.f16, add.f16x2, ...);
// comparisons, division and the math functions (hsqrt, hexp, ...) are computed in
// float from the exact float value of each half and rounded once to half.
#pragma clang system_header
#ifndef KERNELSCOPE_CUDA_FP16_H
#define KERNELSCOPE_CUDA_FP16_H
#include "kernelscope_names_push.h"
#include "kernelscope_prelude.h"

#define __CUDA_FP16_DECL__ static __device__ __forceinline__
#define KS_H __CUDA_FP16_DECL__

struct __half_raw {
  unsigned short x;
};
struct __half2_raw {
  unsigned short x, y;
};

struct __align__(2) __half {
  unsigned short __x;
  __half() = default;
  __host__ __device__ constexpr __half(const __half_raw &r) : __x(r.x) {}
  __device__ __half(float f);
  __device__ __half(double f);
  __device__ __half(int v);
  __device__ __half(unsigned int v);
  __device__ __half(short v);
  __device__ __half(unsigned short v);
  __device__ __half(long long v);
  __device__ __half(unsigned long long v);
  __device__ operator float() const;
  __host__ __device__ constexpr operator __half_raw() const { return __half_raw{__x}; }
  __device__ __half &operator=(float f);
};
struct __align__(4) __half2 {
  __half x, y;
  __half2() = default;
  __host__ __device__ constexpr __half2(const __half &a, const __half &b) : x(a), y(b) {}
  __host__ __device__ constexpr __half2(const __half2_raw &r) : x(__half_raw{r.x}), y(__half_raw{r.y}) {}
  __host__ __device__ constexpr operator __half2_raw() const { return __half2_raw{x.__x, y.__x}; }
};
typedef struct __half half;
typedef struct __half2 half2;

// ---- bits ----
KS_H unsigned short __half_as_ushort(__half h) { return h.__x; }
KS_H short __half_as_short(__half h) { return (short)h.__x; }
KS_H __half __ushort_as_half(unsigned short u) { return __half(__half_raw{u}); }
KS_H __half __short_as_half(short s) { return __half(__half_raw{(unsigned short)s}); }
KS_H unsigned int __ks_h2u(__half2 h) { return (unsigned int)h.x.__x | ((unsigned int)h.y.__x << 16); }
KS_H __half2 __ks_u2h(unsigned int u) { return __half2(__half2_raw{(unsigned short)u, (unsigned short)(u >> 16)}); }

// ---- conversions ----
#define KS_CVT_TO_H(NAME, MODE)                                                 \
  KS_H __half NAME(float f) {                                                   \
    unsigned short r;                                                           \
    asm("cvt." MODE ".f16.f32 %0, %1;" : "=h"(r) : "f"(f));                     \
    return __ushort_as_half(r);                                                 \
  }
KS_CVT_TO_H(__float2half, "rn")
KS_CVT_TO_H(__float2half_rn, "rn")
KS_CVT_TO_H(__float2half_rz, "rz")
KS_CVT_TO_H(__float2half_rd, "rm")
KS_CVT_TO_H(__float2half_ru, "rp")
#undef KS_CVT_TO_H
KS_H __half __double2half(double d) {
  unsigned short r;
  asm("cvt.rn.f16.f64 %0, %1;" : "=h"(r) : "d"(d));
  return __ushort_as_half(r);
}
KS_H float __half2float(__half h) {
  float f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h.__x));
  return f;
}
#define KS_CVT_INT(NAME, T, C, PT, MODE)                                        \
  KS_H __half NAME(T v) {                                                       \
    unsigned short r;                                                           \
    asm("cvt." MODE ".f16." PT " %0, %1;" : "=h"(r) : C(v));                    \
    return __ushort_as_half(r);                                                 \
  }
KS_CVT_INT(__int2half_rn, int, "r", "s32", "rn")
KS_CVT_INT(__int2half_rz, int, "r", "s32", "rz")
KS_CVT_INT(__uint2half_rn, unsigned int, "r", "u32", "rn")
KS_CVT_INT(__short2half_rn, short, "h", "s16", "rn")
KS_CVT_INT(__ushort2half_rn, unsigned short, "h", "u16", "rn")
KS_CVT_INT(__ll2half_rn, long long, "l", "s64", "rn")
KS_CVT_INT(__ull2half_rn, unsigned long long, "l", "u64", "rn")
#undef KS_CVT_INT
#define KS_CVT_FROM(NAME, T, C, PT, MODE)                                       \
  KS_H T NAME(__half h) {                                                       \
    T r;                                                                        \
    asm("cvt." MODE "i." PT ".f16 %0, %1;" : "=" C(r) : "h"(h.__x));            \
    return r;                                                                   \
  }
KS_CVT_FROM(__half2int_rn, int, "r", "s32", "rn")
KS_CVT_FROM(__half2int_rz, int, "r", "s32", "rz")
KS_CVT_FROM(__half2int_rd, int, "r", "s32", "rm")
KS_CVT_FROM(__half2int_ru, int, "r", "s32", "rp")
KS_CVT_FROM(__half2uint_rn, unsigned int, "r", "u32", "rn")
KS_CVT_FROM(__half2uint_rz, unsigned int, "r", "u32", "rz")
KS_CVT_FROM(__half2short_rz, short, "h", "s16", "rz")
KS_CVT_FROM(__half2ll_rz, long long, "l", "s64", "rz")
#undef KS_CVT_FROM

__device__ inline __half::__half(float f) : __x(__float2half(f).__x) {}
__device__ inline __half::__half(double d) : __x(__double2half(d).__x) {}
__device__ inline __half::__half(int v) : __x(__int2half_rn(v).__x) {}
__device__ inline __half::__half(unsigned int v) : __x(__uint2half_rn(v).__x) {}
__device__ inline __half::__half(short v) : __x(__short2half_rn(v).__x) {}
__device__ inline __half::__half(unsigned short v) : __x(__ushort2half_rn(v).__x) {}
__device__ inline __half::__half(long long v) : __x(__ll2half_rn(v).__x) {}
__device__ inline __half::__half(unsigned long long v) : __x(__ull2half_rn(v).__x) {}
__device__ inline __half::operator float() const { return __half2float(*this); }
__device__ inline __half &__half::operator=(float f) {
  __x = __float2half(f).__x;
  return *this;
}

KS_H __half2 make_half2(__half a, __half b) { return __half2(a, b); }
KS_H __half2 __halves2half2(__half lo, __half hi) { return __half2(lo, hi); }
KS_H __half2 __half2half2(__half h) { return __half2(h, h); }
KS_H __half2 __float2half2_rn(float f) {
  __half h = __float2half_rn(f);
  return __half2(h, h);
}
KS_H __half2 __floats2half2_rn(float lo, float hi) {
#if __CUDA_ARCH__ >= 800
  unsigned int r;
  asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo));
  return __ks_u2h(r);
#else
  return __half2(__float2half_rn(lo), __float2half_rn(hi));
#endif
}
KS_H __half2 __float22half2_rn(float2 f) { return __floats2half2_rn(f.x, f.y); }
KS_H float __low2float(__half2 h) { return __half2float(h.x); }
KS_H float __high2float(__half2 h) { return __half2float(h.y); }
KS_H float2 __half22float2(__half2 h) { return make_float2(__half2float(h.x), __half2float(h.y)); }
KS_H __half __low2half(__half2 h) { return h.x; }
KS_H __half __high2half(__half2 h) { return h.y; }
KS_H __half2 __low2half2(__half2 h) { return __half2(h.x, h.x); }
KS_H __half2 __high2half2(__half2 h) { return __half2(h.y, h.y); }
KS_H __half2 __lows2half2(__half2 a, __half2 b) { return __half2(a.x, b.x); }
KS_H __half2 __highs2half2(__half2 a, __half2 b) { return __half2(a.y, b.y); }
KS_H __half2 __lowhigh2highlow(__half2 h) { return __half2(h.y, h.x); }

// ---- arithmetic: one f16 / f16x2 instruction each ----
#define KS_H_BIN(NAME, INS)                                                     \
  KS_H __half NAME(__half a, __half b) {                                        \
    unsigned short r;                                                           \
    asm(INS ".f16 %0, %1, %2;" : "=h"(r) : "h"(a.__x), "h"(b.__x));             \
    return __ushort_as_half(r);                                                 \
  }
#define KS_H2_BIN(NAME, INS)                                                    \
  KS_H __half2 NAME(__half2 a, __half2 b) {                                     \
    unsigned int r;                                                             \
    asm(INS ".f16x2 %0, %1, %2;" : "=r"(r) : "r"(__ks_h2u(a)), "r"(__ks_h2u(b))); \
    return __ks_u2h(r);                                                         \
  }
// __hadd __hsub __hmul (and the operators built on them) are plain f16 arithmetic in
// clang, so they contract as nvcc's add.f16 / mul.f16 do under ptxas: with the cell's
// contraction on (-ffp-contract=fast-honor-pragmas, as nvcc's --fmad=true) a + b * a
// becomes one fma.rn.f16. The _rn forms stay one instruction each, never fused.
#define KS_H_ARITH(NAME, OP)                                                    \
  KS_H __half NAME(__half a, __half b) {                                        \
    _Float16 r = __builtin_bit_cast(_Float16, a.__x) OP __builtin_bit_cast(_Float16, b.__x); \
    return __ushort_as_half(__builtin_bit_cast(unsigned short, r));             \
  }
typedef _Float16 __ks_f16x2 __attribute__((ext_vector_type(2)));
KS_H __ks_f16x2 __ks_h2v(__half2 a) {
  return __ks_f16x2{__builtin_bit_cast(_Float16, a.x.__x), __builtin_bit_cast(_Float16, a.y.__x)};
}
#define KS_H2_ARITH(NAME, OP)                                                   \
  KS_H __half2 NAME(__half2 a, __half2 b) {                                     \
    __ks_f16x2 r = __ks_h2v(a) OP __ks_h2v(b);                                  \
    _Float16 lo = r[0], hi = r[1]; /* clang 19 bit-casts r.y as r.x: copy first */ \
    return __half2(__half_raw{__builtin_bit_cast(unsigned short, lo)},          \
                   __half_raw{__builtin_bit_cast(unsigned short, hi)});         \
  }
KS_H_ARITH(__hadd, +)
KS_H_ARITH(__hsub, -)
KS_H_ARITH(__hmul, *)
KS_H2_ARITH(__hadd2, +)
KS_H2_ARITH(__hsub2, -)
KS_H2_ARITH(__hmul2, *)
#undef KS_H_ARITH
#undef KS_H2_ARITH
KS_H_BIN(__hadd_sat, "add.sat")
KS_H_BIN(__hsub_sat, "sub.sat")
KS_H_BIN(__hmul_sat, "mul.sat")
KS_H_BIN(__hadd_rn, "add.rn")
KS_H_BIN(__hsub_rn, "sub.rn")
KS_H_BIN(__hmul_rn, "mul.rn")
KS_H2_BIN(__hadd2_sat, "add.sat")
KS_H2_BIN(__hsub2_sat, "sub.sat")
KS_H2_BIN(__hmul2_sat, "mul.sat")
#if __CUDA_ARCH__ >= 800
KS_H_BIN(__hmax, "max")
KS_H_BIN(__hmin, "min")
KS_H2_BIN(__hmax2, "max")
KS_H2_BIN(__hmin2, "min")
#else
KS_H __half __hmax(__half a, __half b) { return __float2half(__builtin_fmaxf(__half2float(a), __half2float(b))); }
KS_H __half __hmin(__half a, __half b) { return __float2half(__builtin_fminf(__half2float(a), __half2float(b))); }
KS_H __half2 __hmax2(__half2 a, __half2 b) { return __half2(__hmax(a.x, b.x), __hmax(a.y, b.y)); }
KS_H __half2 __hmin2(__half2 a, __half2 b) { return __half2(__hmin(a.x, b.x), __hmin(a.y, b.y)); }
#endif
#undef KS_H_BIN
#undef KS_H2_BIN
KS_H __half __hfma(__half a, __half b, __half c) {
  unsigned short r;
  asm("fma.rn.f16 %0, %1, %2, %3;" : "=h"(r) : "h"(a.__x), "h"(b.__x), "h"(c.__x));
  return __ushort_as_half(r);
}
KS_H __half __hfma_sat(__half a, __half b, __half c) {
  unsigned short r;
  asm("fma.rn.sat.f16 %0, %1, %2, %3;" : "=h"(r) : "h"(a.__x), "h"(b.__x), "h"(c.__x));
  return __ushort_as_half(r);
}
KS_H __half2 __hfma2(__half2 a, __half2 b, __half2 c) {
  unsigned int r;
  asm("fma.rn.f16x2 %0, %1, %2, %3;" : "=r"(r) : "r"(__ks_h2u(a)), "r"(__ks_h2u(b)), "r"(__ks_h2u(c)));
  return __ks_u2h(r);
}
KS_H __half2 __hfma2_sat(__half2 a, __half2 b, __half2 c) {
  unsigned int r;
  asm("fma.rn.sat.f16x2 %0, %1, %2, %3;" : "=r"(r) : "r"(__ks_h2u(a)), "r"(__ks_h2u(b)), "r"(__ks_h2u(c)));
  return __ks_u2h(r);
}
KS_H __half __hneg(__half a) {
  unsigned short r;
  asm("neg.f16 %0, %1;" : "=h"(r) : "h"(a.__x));
  return __ushort_as_half(r);
}
KS_H __half2 __hneg2(__half2 a) {
  unsigned int r;
  asm("neg.f16x2 %0, %1;" : "=r"(r) : "r"(__ks_h2u(a)));
  return __ks_u2h(r);
}
KS_H __half __habs(__half a) { return __ushort_as_half(a.__x & 0x7fffu); }
KS_H __half2 __habs2(__half2 a) { return __ks_u2h(__ks_h2u(a) & 0x7fff7fffu); }
KS_H __half __hdiv(__half a, __half b) { return __float2half(__nvvm_reflect("__CUDA_FTZ") ? __nvvm_div_rn_ftz_f(__half2float(a), __half2float(b)) : __nvvm_div_rn_f(__half2float(a), __half2float(b))); }
KS_H __half2 __h2div(__half2 a, __half2 b) { return __half2(__hdiv(a.x, b.x), __hdiv(a.y, b.y)); }

// ---- comparisons and classification (exact, through float) ----
#define KS_H_CMP(NAME, NAME2, OP)                                                               \
  KS_H bool NAME(__half a, __half b) { return __half2float(a) OP __half2float(b); }             \
  KS_H __half2 NAME2(__half2 a, __half2 b) {                                                    \
    return __half2(__ushort_as_half(NAME(a.x, b.x) ? 0x3c00 : 0), __ushort_as_half(NAME(a.y, b.y) ? 0x3c00 : 0)); \
  }
KS_H_CMP(__heq, __heq2, ==)
KS_H_CMP(__hne, __hne2, !=)
KS_H_CMP(__hlt, __hlt2, <)
KS_H_CMP(__hle, __hle2, <=)
KS_H_CMP(__hgt, __hgt2, >)
KS_H_CMP(__hge, __hge2, >=)
#undef KS_H_CMP
KS_H bool __hbeq2(__half2 a, __half2 b) { return __heq(a.x, b.x) && __heq(a.y, b.y); }
KS_H bool __hisnan(__half a) { return (a.__x & 0x7fffu) > 0x7c00u; }
KS_H int __hisinf(__half a) { return a.__x == 0x7c00u ? 1 : a.__x == 0xfc00u ? -1 : 0; }

// ---- math functions, in float and rounded once ----
// 1/x correctly rounded in float whatever the flags (-use_fast_math makes a plain '/' div.approx).
KS_H float __ks_rcp_rn_f(float x) { return __nvvm_reflect("__CUDA_FTZ") ? __nvvm_div_rn_ftz_f(1.0f, x) : __nvvm_div_rn_f(1.0f, x); }
#define KS_H_MATH(NAME, NAME2, F)                                                      \
  KS_H __half NAME(__half a) { return __float2half(F(__half2float(a))); }              \
  KS_H __half2 NAME2(__half2 a) { return __half2(NAME(a.x), NAME(a.y)); }
KS_H_MATH(hsqrt, h2sqrt, sqrtf)
KS_H_MATH(hrsqrt, h2rsqrt, rsqrtf)
KS_H_MATH(hrcp, h2rcp, __ks_rcp_rn_f)
KS_H_MATH(hexp, h2exp, expf)
KS_H_MATH(hexp2, h2exp2, exp2f)
KS_H_MATH(hexp10, h2exp10, exp10f)
KS_H_MATH(hlog, h2log, logf)
KS_H_MATH(hlog2, h2log2, log2f)
KS_H_MATH(hlog10, h2log10, log10f)
KS_H_MATH(hsin, h2sin, sinf)
KS_H_MATH(hcos, h2cos, cosf)
KS_H_MATH(htanh, h2tanh, tanhf)
KS_H_MATH(hfloor, h2floor, floorf)
KS_H_MATH(hceil, h2ceil, ceilf)
KS_H_MATH(htrunc, h2trunc, truncf)
KS_H_MATH(hrint, h2rint, rintf)
#undef KS_H_MATH

// ---- operators ----
KS_H __half operator+(const __half &a, const __half &b) { return __hadd(a, b); }
KS_H __half operator-(const __half &a, const __half &b) { return __hsub(a, b); }
KS_H __half operator*(const __half &a, const __half &b) { return __hmul(a, b); }
KS_H __half operator/(const __half &a, const __half &b) { return __hdiv(a, b); }
KS_H __half &operator+=(__half &a, const __half &b) { return a = __hadd(a, b); }
KS_H __half &operator-=(__half &a, const __half &b) { return a = __hsub(a, b); }
KS_H __half &operator*=(__half &a, const __half &b) { return a = __hmul(a, b); }
KS_H __half &operator/=(__half &a, const __half &b) { return a = __hdiv(a, b); }
KS_H __half operator-(const __half &a) { return __hneg(a); }
KS_H __half operator+(const __half &a) { return a; }
KS_H bool operator==(const __half &a, const __half &b) { return __heq(a, b); }
KS_H bool operator!=(const __half &a, const __half &b) { return __hne(a, b); }
KS_H bool operator<(const __half &a, const __half &b) { return __hlt(a, b); }
KS_H bool operator<=(const __half &a, const __half &b) { return __hle(a, b); }
KS_H bool operator>(const __half &a, const __half &b) { return __hgt(a, b); }
KS_H bool operator>=(const __half &a, const __half &b) { return __hge(a, b); }
KS_H __half2 operator+(const __half2 &a, const __half2 &b) { return __hadd2(a, b); }
KS_H __half2 operator-(const __half2 &a, const __half2 &b) { return __hsub2(a, b); }
KS_H __half2 operator*(const __half2 &a, const __half2 &b) { return __hmul2(a, b); }
KS_H __half2 operator/(const __half2 &a, const __half2 &b) { return __h2div(a, b); }
KS_H __half2 &operator+=(__half2 &a, const __half2 &b) { return a = __hadd2(a, b); }
KS_H __half2 &operator-=(__half2 &a, const __half2 &b) { return a = __hsub2(a, b); }
KS_H __half2 &operator*=(__half2 &a, const __half2 &b) { return a = __hmul2(a, b); }
KS_H __half2 operator-(const __half2 &a) { return __hneg2(a); }
KS_H bool operator==(const __half2 &a, const __half2 &b) { return __hbeq2(a, b); }

// ---- warp shuffles and loads ----
#define KS_H_SHFL(NAME, ARG)                                                                     \
  KS_H __half NAME(unsigned int m, __half v, ARG a, int w = warpSize) {                          \
    return __ushort_as_half((unsigned short)NAME(m, (unsigned int)v.__x, a, w));                 \
  }                                                                                              \
  KS_H __half2 NAME(unsigned int m, __half2 v, ARG a, int w = warpSize) { return __ks_u2h(NAME(m, __ks_h2u(v), a, w)); }
KS_H_SHFL(__shfl_sync, int)
KS_H_SHFL(__shfl_up_sync, unsigned int)
KS_H_SHFL(__shfl_down_sync, unsigned int)
KS_H_SHFL(__shfl_xor_sync, int)
#undef KS_H_SHFL
KS_H __half __ldg(const __half *p) { return __ushort_as_half(__ldg((const unsigned short *)p)); }
KS_H __half2 __ldg(const __half2 *p) { return __ks_u2h(__ldg((const unsigned int *)p)); }

#undef KS_H
#include "kernelscope_names_pop.h"
#endif // KERNELSCOPE_CUDA_FP16_H
