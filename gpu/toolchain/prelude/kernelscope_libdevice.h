// KernelScope's definitions of the libdevice (__nv_*) functions that clang's CUDA
// wrapper headers call. The accuracy of each is stated in gpu/toolchain/doc.go.
// The transcendental algorithms use only correctly rounded operations (fma, add,
// mul, div.rn, integer ops) so that gpu/toolchain's tests can replay them exactly
// in Go and measure their error; floating-point contraction is off inside them.
#pragma clang system_header
#ifndef KERNELSCOPE_LIBDEVICE_H
#define KERNELSCOPE_LIBDEVICE_H

#define KS_NV extern "C" __device__ inline __attribute__((always_inline))
#define KS_IN static __device__ __forceinline__
#define KS_EXACT _Pragma("clang fp contract(off)")

// ---- integer intrinsics ----
KS_NV int __nv_abs(int a) { return a < 0 ? -a : a; }
KS_NV long long __nv_llabs(long long a) { return a < 0 ? -a : a; }
KS_NV int __nv_brev(int a) { return (int)__builtin_bitreverse32((unsigned int)a); }
KS_NV long long __nv_brevll(long long a) { return (long long)__builtin_bitreverse64((unsigned long long)a); }
KS_NV int __nv_byte_perm(int a, int b, int c) { return (int)__nvvm_prmt((unsigned)a, (unsigned)b, (unsigned)c); }
KS_NV int __nv_clz(int a) { return __builtin_clzg((unsigned int)a, 32); }
KS_NV int __nv_clzll(long long a) { return __builtin_clzg((unsigned long long)a, 64); }
KS_NV int __nv_ffs(int a) { return a == 0 ? 0 : __builtin_ctzg((unsigned int)a) + 1; }
KS_NV int __nv_ffsll(long long a) { return a == 0 ? 0 : __builtin_ctzg((unsigned long long)a) + 1; }
KS_NV int __nv_popc(unsigned int a) { return __builtin_popcount(a); }
KS_NV int __nv_popcll(unsigned long long a) { return __builtin_popcountll(a); }
KS_NV int __nv_hadd(int a, int b) { return (int)(((long long)a + (long long)b) >> 1); }
KS_NV int __nv_rhadd(int a, int b) { return (int)(((long long)a + (long long)b + 1) >> 1); }
KS_NV int __nv_uhadd(unsigned int a, unsigned int b) { return (int)(unsigned int)(((unsigned long long)a + b) >> 1); }
KS_NV unsigned int __nv_urhadd(unsigned int a, unsigned int b) { return (unsigned int)(((unsigned long long)a + b + 1) >> 1); }
KS_NV int __nv_max(int a, int b) { return a > b ? a : b; }
KS_NV int __nv_min(int a, int b) { return a < b ? a : b; }
KS_NV unsigned int __nv_umax(unsigned int a, unsigned int b) { return a > b ? a : b; }
KS_NV unsigned int __nv_umin(unsigned int a, unsigned int b) { return a < b ? a : b; }
KS_NV long long __nv_llmax(long long a, long long b) { return a > b ? a : b; }
KS_NV long long __nv_llmin(long long a, long long b) { return a < b ? a : b; }
KS_NV unsigned long long __nv_ullmax(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
KS_NV unsigned long long __nv_ullmin(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
KS_NV int __nv_mul24(int a, int b) { return __nvvm_mul24_i(a, b); }
KS_NV unsigned int __nv_umul24(unsigned int a, unsigned int b) { return __nvvm_mul24_ui(a, b); }
KS_NV int __nv_mulhi(int a, int b) { return __nvvm_mulhi_i(a, b); }
KS_NV unsigned int __nv_umulhi(unsigned int a, unsigned int b) { return __nvvm_mulhi_ui(a, b); }
KS_NV long long __nv_mul64hi(long long a, long long b) { return __nvvm_mulhi_ll(a, b); }
KS_NV unsigned long long __nv_umul64hi(unsigned long long a, unsigned long long b) { return __nvvm_mulhi_ull(a, b); }
KS_NV int __nv_sad(int a, int b, int c) { return __nvvm_sad_i(a, b, c); }
KS_NV unsigned int __nv_usad(unsigned int a, unsigned int b, unsigned int c) { return __nvvm_sad_ui(a, b, c); }

// ---- bit casts and classification ----
KS_NV int __nv_float_as_int(float a) { return __builtin_bit_cast(int, a); }
KS_NV unsigned int __nv_float_as_uint(float a) { return __builtin_bit_cast(unsigned int, a); }
KS_NV float __nv_int_as_float(int a) { return __builtin_bit_cast(float, a); }
KS_NV float __nv_uint_as_float(unsigned int a) { return __builtin_bit_cast(float, a); }
KS_NV unsigned long long __nv_double_as_longlong(double a) { return __builtin_bit_cast(unsigned long long, a); }
KS_NV double __nv_longlong_as_double(long long a) { return __builtin_bit_cast(double, a); }
KS_NV int __nv_double2hiint(double a) { return (int)(__builtin_bit_cast(unsigned long long, a) >> 32); }
KS_NV int __nv_double2loint(double a) { return (int)__builtin_bit_cast(unsigned long long, a); }
KS_NV double __nv_hiloint2double(int hi, int lo) {
  return __builtin_bit_cast(double, ((unsigned long long)(unsigned int)hi << 32) | (unsigned int)lo);
}
KS_NV int __nv_isnanf(float a) { return a != a; }
KS_NV int __nv_isnand(double a) { return a != a; }
KS_NV int __nv_isinff(float a) { return __builtin_fabsf(a) == __builtin_inff(); }
KS_NV int __nv_isinfd(double a) { return __builtin_fabs(a) == __builtin_inf(); }
KS_NV int __nv_finitef(float a) { return __builtin_fabsf(a) < __builtin_inff(); }
KS_NV int __nv_isfinited(double a) { return __builtin_fabs(a) < __builtin_inf(); }
KS_NV int __nv_signbitf(float a) { return (int)(__builtin_bit_cast(unsigned int, a) >> 31); }
KS_NV int __nv_signbitd(double a) { return (int)(__builtin_bit_cast(unsigned long long, a) >> 63); }

// ---- simple float and double functions: one PTX instruction or exact by construction ----
KS_NV float __nv_fabsf(float a) { return __builtin_fabsf(a); }
KS_NV double __nv_fabs(double a) { return __builtin_fabs(a); }
KS_NV float __nv_fminf(float a, float b) { return __nvvm_fmin_f(a, b); }
KS_NV float __nv_fmaxf(float a, float b) { return __nvvm_fmax_f(a, b); }
KS_NV double __nv_fmin(double a, double b) { return __nvvm_fmin_d(a, b); }
KS_NV double __nv_fmax(double a, double b) { return __nvvm_fmax_d(a, b); }
KS_NV float __nv_floorf(float a) { return __nvvm_floor_f(a); }
KS_NV double __nv_floor(double a) { return __nvvm_floor_d(a); }
KS_NV float __nv_ceilf(float a) { return __nvvm_ceil_f(a); }
KS_NV double __nv_ceil(double a) { return __nvvm_ceil_d(a); }
KS_NV float __nv_truncf(float a) { return __nvvm_trunc_f(a); }
KS_NV double __nv_trunc(double a) { return __nvvm_trunc_d(a); }
KS_NV float __nv_rintf(float a) { return __nvvm_round_f(a); }
KS_NV double __nv_rint(double a) { return __nvvm_round_d(a); }
KS_NV float __nv_nearbyintf(float a) { return __nvvm_round_f(a); }
KS_NV double __nv_nearbyint(double a) { return __nvvm_round_d(a); }
KS_NV float __nv_roundf(float a) {
  float t = __nvvm_trunc_f(a);
  return __builtin_fabsf(a - t) >= 0.5f ? t + __builtin_copysignf(1.0f, a) : t;
}
KS_NV double __nv_round(double a) {
  double t = __nvvm_trunc_d(a);
  return __builtin_fabs(a - t) >= 0.5 ? t + __builtin_copysign(1.0, a) : t;
}
KS_NV long long __nv_llrintf(float a) { return __nvvm_f2ll_rn(a); }
KS_NV long long __nv_llrint(double a) { return __nvvm_d2ll_rn(a); }
KS_NV long long __nv_llroundf(float a) { return (long long)__nv_roundf(a); }
KS_NV long long __nv_llround(double a) { return (long long)__nv_round(a); }
KS_NV float __nv_copysignf(float a, float b) { return __builtin_copysignf(a, b); }
KS_NV double __nv_copysign(double a, double b) { return __builtin_copysign(a, b); }
KS_NV float __nv_fdimf(float a, float b) { return a > b ? a - b : (a != a || b != b ? a + b : 0.0f); }
KS_NV double __nv_fdim(double a, double b) { return a > b ? a - b : (a != a || b != b ? a + b : 0.0); }
KS_NV float __nv_saturatef(float a) { return __nvvm_saturate_f(a); }
KS_NV float __nv_fmaf(float a, float b, float c) { return __nvvm_fma_rn_f(a, b, c); }
KS_NV double __nv_fma(double a, double b, double c) { return __nvvm_fma_rn_d(a, b, c); }
KS_NV float __nv_sqrtf(float a) { return __nvvm_sqrt_rn_f(a); }
KS_NV double __nv_sqrt(double a) { return __nvvm_sqrt_rn_d(a); }
KS_NV float __nv_rsqrtf(float a) { return __nvvm_rsqrt_approx_f(a); }
KS_NV double __nv_rsqrt(double a) { return __nvvm_div_rn_d(1.0, __nvvm_sqrt_rn_d(a)); }
KS_NV float __nv_frsqrt_rn(float a) { return __nvvm_rsqrt_approx_f(a); }
KS_NV float __nv_ldexpf(float a, int e) { return __builtin_ldexpf(a, e); }
KS_NV double __nv_ldexp(double a, int e) { return __builtin_ldexp(a, e); }
KS_NV float __nv_scalbnf(float a, int e) { return __builtin_ldexpf(a, e); }
KS_NV double __nv_scalbn(double a, int e) { return __builtin_ldexp(a, e); }

// ---- arithmetic with an explicit rounding mode: one PTX instruction each ----
#define KS_ROUNDED(M, P) \
  KS_NV float __nv_fadd_##M(float a, float b) { return __nvvm_add_##P##_f(a, b); } \
  KS_NV float __nv_fsub_##M(float a, float b) { return __nvvm_add_##P##_f(a, -b); } \
  KS_NV float __nv_fmul_##M(float a, float b) { return __nvvm_mul_##P##_f(a, b); } \
  KS_NV float __nv_fdiv_##M(float a, float b) { return __nvvm_div_##P##_f(a, b); } \
  KS_NV float __nv_frcp_##M(float a) { return __nvvm_rcp_##P##_f(a); } \
  KS_NV float __nv_fsqrt_##M(float a) { return __nvvm_sqrt_##P##_f(a); } \
  KS_NV float __nv_fmaf_##M(float a, float b, float c) { return __nvvm_fma_##P##_f(a, b, c); } \
  KS_NV float __nv_fmaf_ieee_##M(float a, float b, float c) { return __nvvm_fma_##P##_f(a, b, c); } \
  KS_NV double __nv_dadd_##M(double a, double b) { return __nvvm_add_##P##_d(a, b); } \
  KS_NV double __nv_dsub_##M(double a, double b) { return __nvvm_add_##P##_d(a, -b); } \
  KS_NV double __nv_dmul_##M(double a, double b) { return __nvvm_mul_##P##_d(a, b); } \
  KS_NV double __nv_ddiv_##M(double a, double b) { return __nvvm_div_##P##_d(a, b); } \
  KS_NV double __nv_drcp_##M(double a) { return __nvvm_rcp_##P##_d(a); } \
  KS_NV double __nv_dsqrt_##M(double a) { return __nvvm_sqrt_##P##_d(a); } \
  KS_NV double __nv_fma_##M(double a, double b, double c) { return __nvvm_fma_##P##_d(a, b, c); } \
  KS_NV int __nv_float2int_##M(float a) { return __nvvm_f2i_##P(a); } \
  KS_NV unsigned int __nv_float2uint_##M(float a) { return __nvvm_f2ui_##P(a); } \
  KS_NV long long __nv_float2ll_##M(float a) { return __nvvm_f2ll_##P(a); } \
  KS_NV unsigned long long __nv_float2ull_##M(float a) { return __nvvm_f2ull_##P(a); } \
  KS_NV int __nv_double2int_##M(double a) { return __nvvm_d2i_##P(a); } \
  KS_NV unsigned int __nv_double2uint_##M(double a) { return __nvvm_d2ui_##P(a); } \
  KS_NV long long __nv_double2ll_##M(double a) { return __nvvm_d2ll_##P(a); } \
  KS_NV unsigned long long __nv_double2ull_##M(double a) { return __nvvm_d2ull_##P(a); } \
  KS_NV float __nv_int2float_##M(int a) { return __nvvm_i2f_##P(a); } \
  KS_NV float __nv_uint2float_##M(unsigned int a) { return __nvvm_ui2f_##P(a); } \
  KS_NV float __nv_ll2float_##M(long long a) { return __nvvm_ll2f_##P(a); } \
  KS_NV float __nv_ull2float_##M(unsigned long long a) { return __nvvm_ull2f_##P(a); } \
  KS_NV double __nv_ll2double_##M(long long a) { return __nvvm_ll2d_##P(a); } \
  KS_NV double __nv_ull2double_##M(unsigned long long a) { return __nvvm_ull2d_##P(a); } \
  KS_NV float __nv_double2float_##M(double a) { return __nvvm_d2f_##P(a); }
KS_ROUNDED(rn, rn)
KS_ROUNDED(rz, rz)
KS_ROUNDED(rd, rm)
KS_ROUNDED(ru, rp)
#undef KS_ROUNDED
KS_NV double __nv_int2double_rn(int a) { return (double)a; }
KS_NV double __nv_uint2double_rn(unsigned int a) { return (double)a; }

// ---- fast intrinsics: the hardware approximations CUDA's __expf & co. use ----
KS_NV float __nv_fast_expf(float a) { return __nvvm_ex2_approx_f(__nvvm_mul_rn_f(a, 1.44269502f)); }
KS_NV float __nv_fast_exp10f(float a) { return __nvvm_ex2_approx_f(__nvvm_mul_rn_f(a, 3.32192802f)); }
KS_NV float __nv_fast_log2f(float a) { return __nvvm_lg2_approx_f(a); }
KS_NV float __nv_fast_logf(float a) { return __nvvm_mul_rn_f(__nvvm_lg2_approx_f(a), 0.693147182f); }
KS_NV float __nv_fast_log10f(float a) { return __nvvm_mul_rn_f(__nvvm_lg2_approx_f(a), 0.301029987f); }
KS_NV float __nv_fast_sinf(float a) { return __nvvm_sin_approx_f(a); }
KS_NV float __nv_fast_cosf(float a) { return __nvvm_cos_approx_f(a); }
KS_NV float __nv_fast_tanf(float a) { return __nvvm_div_approx_f(__nvvm_sin_approx_f(a), __nvvm_cos_approx_f(a)); }
KS_NV void __nv_fast_sincosf(float a, float *s, float *c) { *s = __nvvm_sin_approx_f(a); *c = __nvvm_cos_approx_f(a); }
KS_NV float __nv_fast_powf(float a, float b) { return __nvvm_ex2_approx_f(__nvvm_mul_rn_f(b, __nvvm_lg2_approx_f(a))); }
KS_NV float __nv_fast_fdividef(float a, float b) { return __nvvm_div_approx_f(a, b); }

// ---- single-precision transcendental functions (replayed in Go by mathref_test.go) ----
KS_IN float ks_pow2f(int k) { return __builtin_bit_cast(float, (k + 127) << 23); }  // -126 <= k <= 127
KS_IN float ks_scalef(float p, int j) {  // p * 2^j, -252 <= j <= 254, one rounding at most
  KS_EXACT
  int j1 = j / 2;
  return (p * ks_pow2f(j1)) * ks_pow2f(j - j1);
}
// exp(r) - 1 on |r| <= 0.35 by its Taylor series.
KS_IN float ks_expm1_kernelf(float r) {
  KS_EXACT
  float p = 2.48015873e-5f;                 // 1/8!
  p = __builtin_fmaf(p, r, 1.98412698e-4f); // 1/7!
  p = __builtin_fmaf(p, r, 1.38888889e-3f); // 1/6!
  p = __builtin_fmaf(p, r, 8.33333333e-3f); // 1/5!
  p = __builtin_fmaf(p, r, 4.16666667e-2f); // 1/4!
  p = __builtin_fmaf(p, r, 1.66666667e-1f); // 1/3!
  p = __builtin_fmaf(p, r, 0.5f);
  return __builtin_fmaf(p * r, r, r);
}
// exp(x) = 2^j * exp(r), r = x - j*ln2; returns the scaled result.
KS_IN float ks_expf(float x) {
  KS_EXACT
  if (x != x) return x + x;
  if (x > 88.7228394f) return __builtin_inff();
  if (x < -103.972084f) return 0.0f;
  float j = __nvvm_round_f(x * 1.44269502f);
  float r = __builtin_fmaf(j, -0.693147182f, x);
  r = __builtin_fmaf(j, 1.90465421e-9f, r);
  float p = ks_expm1_kernelf(r) + 1.0f;
  return ks_scalef(p, (int)j);
}
KS_IN float ks_exp2f(float x) {
  KS_EXACT
  if (x != x) return x + x;
  if (x >= 128.0f) return __builtin_inff();
  if (x < -150.0f) return 0.0f;
  float j = __nvvm_round_f(x);
  float f = x - j;
  float r = __builtin_fmaf(f, 0.693147182f, f * -1.90465421e-9f);
  float p = ks_expm1_kernelf(r) + 1.0f;
  return ks_scalef(p, (int)j);
}
// log(x) = e*ln2 + log(m), m in [sqrt(1/2), sqrt(2)); *e receives e. Needs finite x > 0.
KS_IN float ks_log_kernelf(float x, int *e) {
  KS_EXACT
  unsigned int b = __builtin_bit_cast(unsigned int, x);
  int k = 0;
  if (b < 0x00800000u) {  // subnormal
    b = __builtin_bit_cast(unsigned int, x * 16777216.0f);
    k = -24;
  }
  k += (int)(b >> 23) - 127;
  b = (b & 0x007fffffu) | 0x3f800000u;
  if (b > 0x3fb504f3u) {  // m > sqrt(2): use m/2
    b -= 0x00800000u;
    k += 1;
  }
  *e = k;
  float f = __builtin_bit_cast(float, b) - 1.0f;
  float s = f / (2.0f + f);
  float z = s * s;
  float R = 1.53846154e-1f;             // 2/13
  R = __builtin_fmaf(R, z, 1.81818182e-1f); // 2/11
  R = __builtin_fmaf(R, z, 2.22222222e-1f); // 2/9
  R = __builtin_fmaf(R, z, 2.85714286e-1f); // 2/7
  R = __builtin_fmaf(R, z, 4.0e-1f);        // 2/5
  R = __builtin_fmaf(R, z, 6.66666667e-1f); // 2/3
  R = R * z;
  // log(1+f) = 2s + s*R, and 2s = f - s*f.
  return __builtin_fmaf(-s, f - R, f);
}
KS_IN float ks_log_specialf(float x, int *done) {
  *done = 1;
  if (x != x) return x + x;
  if (x < 0.0f) return __builtin_nanf("");
  if (x == 0.0f) return -__builtin_inff();
  if (x == __builtin_inff()) return x;
  *done = 0;
  return 0.0f;
}
KS_IN float ks_logf(float x) {
  KS_EXACT
  int done, e;
  float s = ks_log_specialf(x, &done);
  if (done) return s;
  float l = ks_log_kernelf(x, &e);
  float fe = (float)e;
  return __builtin_fmaf(fe, 0.693147182f, __builtin_fmaf(fe, -1.90465421e-9f, l));
}
KS_IN float ks_log2f(float x) {
  KS_EXACT
  int done, e;
  float s = ks_log_specialf(x, &done);
  if (done) return s;
  float l = ks_log_kernelf(x, &e);
  return __builtin_fmaf(l, 1.44269502f, __builtin_fmaf(l, 1.92596303e-8f, (float)e));
}
KS_IN float ks_log10f(float x) {
  KS_EXACT
  int done, e;
  float s = ks_log_specialf(x, &done);
  if (done) return s;
  float l = ks_log_kernelf(x, &e);
  float fe = (float)e;
  float t = __builtin_fmaf(l, 0.434294492f, __builtin_fmaf(l, -1.01030500e-8f, fe * -1.43209888e-8f));
  return __builtin_fmaf(fe, 0.301030010f, t);
}
// Reduces x to r in [-pi/4, pi/4] with x = q*pi/2 + r; returns q mod 4. Needs finite x.
// 2/pi in 32-bit words after a zero word: bit p of the table (from the top of word 0)
// is the bit of 2/pi worth 2^-(p-31).
__device__ __constant__ static const unsigned int ks_two_over_pi[41] = {
    0x00000000u,  // bits -31..0 (zero): lets the window start before the binary point
    0xA2F9836Eu, 0x4E441529u, 0xFC2757D1u, 0xF534DDC0u,
    0xDB629599u, 0x3C439041u, 0xFE5163ABu, 0xDEBBC561u,
    0xB7246E3Au, 0x424DD2E0u, 0x06492EEAu, 0x09D1921Cu,
    0xFE1DEB1Cu, 0xB129A73Eu, 0xE88235F5u, 0x2EBB4484u,
    0xE99C7026u, 0xB45F7E41u, 0x3991D639u, 0x835339F4u,
    0x9C845F8Bu, 0xBDF9283Bu, 0x1FF897FFu, 0xDE05980Fu,
    0xEF2F118Bu, 0x5A0A6D1Fu, 0x6D367ECFu, 0x27CB09B7u,
    0x4F463F66u, 0x9E5FEA2Du, 0x7527BAC7u, 0xEBE5F17Bu,
    0x3D0739F7u, 0x8A5292EAu, 0x6BFB5FB1u, 0x1F8D5D08u,
    0x56033046u, 0xFC7B6BABu, 0xF0CFBC20u, 0x9AF4361Du,};
KS_IN int ks_reducef(float x, float *r) {
  KS_EXACT
  float ax = __builtin_fabsf(x);
  if (ax < 16384.0f) {
    float j = __nvvm_round_f(x * 0.636619747f);
    float t = __builtin_fmaf(j, -1.57079637f, x);
    t = __builtin_fmaf(j, 4.37113883e-8f, t);
    t = __builtin_fmaf(j, 1.71512451e-15f, t);
    *r = t;
    return (int)j & 3;
  }
  // Payne-Hanek: bits of 2/pi from index E-1 on, times the 24-bit significand.
  unsigned int b = __builtin_bit_cast(unsigned int, ax);
  int E = (int)(b >> 23) - 150;  // ax = m * 2^E, -10 <= E <= 104 here
  unsigned long long m = (b & 0x007fffffu) | 0x00800000u;
  int s = E - 1;  // first bit of 2/pi needed: the one worth 2^-s (bit 1 is worth 1/2)
  int w = (s + 31) >> 5, sh = (s + 31) & 31;  // table bit 0 is the bit worth 2^31
  unsigned int w0 = ks_two_over_pi[w], w1 = ks_two_over_pi[w + 1];
  unsigned int w2 = ks_two_over_pi[w + 2], w3 = ks_two_over_pi[w + 3];
  if (sh != 0) {
    w0 = (w0 << sh) | (w1 >> (32 - sh));
    w1 = (w1 << sh) | (w2 >> (32 - sh));
    w2 = (w2 << sh) | (w3 >> (32 - sh));
  }
  unsigned long long acc = m * w2;
  acc = (acc >> 32) + m * w1;
  unsigned int mid = (unsigned int)acc;
  acc = (acc >> 32) + m * w0;
  unsigned int hi = (unsigned int)acc;
  int q = (int)(hi >> 30);
  long long frac = (long long)((((unsigned long long)hi << 32) | mid) << 2);
  if (frac < 0) q += 1;
  double t = (double)frac * 8.515303950216386e-20;  // pi/2 * 2^-64
  if (x < 0.0f) {
    t = -t;
    q = -q;
  }
  *r = (float)t;
  return q & 3;
}
KS_IN float ks_sin_kernelf(float r) {
  KS_EXACT
  float z = r * r;
  float p = 2.75573192e-6f;                 // 1/9!
  p = __builtin_fmaf(p, z, -1.98412698e-4f); // -1/7!
  p = __builtin_fmaf(p, z, 8.33333333e-3f);  // 1/5!
  p = __builtin_fmaf(p, z, -1.66666667e-1f); // -1/3!
  return __builtin_fmaf(p * z, r, r);
}
KS_IN float ks_cos_kernelf(float r) {
  KS_EXACT
  float z = r * r;
  float p = -2.75573192e-7f;                 // -1/10!
  p = __builtin_fmaf(p, z, 2.48015873e-5f);  // 1/8!
  p = __builtin_fmaf(p, z, -1.38888889e-3f); // -1/6!
  p = __builtin_fmaf(p, z, 4.16666667e-2f);  // 1/4!
  p = __builtin_fmaf(p, z, -0.5f);
  return __builtin_fmaf(p, z, 1.0f);
}
KS_IN float ks_sinf(float x) {
  if (x == 0.0f) return x;  // keeps the sign of zero
  if (x != x || __builtin_fabsf(x) == __builtin_inff()) return x - x;
  float r;
  int q = ks_reducef(x, &r);
  float v = (q & 1) ? ks_cos_kernelf(r) : ks_sin_kernelf(r);
  return (q & 2) ? -v : v;
}
KS_IN float ks_cosf(float x) {
  if (x != x || __builtin_fabsf(x) == __builtin_inff()) return x - x;
  float r;
  int q = ks_reducef(x, &r);
  float v = (q & 1) ? ks_sin_kernelf(r) : ks_cos_kernelf(r);
  return ((q + 1) & 2) ? -v : v;
}
// expm1(t) for 0 <= t: 2^j*(1+p) - 1 with a single final rounding.
KS_IN float ks_expm1_posf(float t) {
  KS_EXACT
  float j = __nvvm_round_f(t * 1.44269502f);
  float r = __builtin_fmaf(j, -0.693147182f, t);
  r = __builtin_fmaf(j, 1.90465421e-9f, r);
  float p = ks_expm1_kernelf(r);
  float s = ks_pow2f((int)j);
  return __builtin_fmaf(s, p, s - 1.0f);
}
KS_IN float ks_tanhf(float x) {
  KS_EXACT
  if (x != x) return x + x;
  float a = __builtin_fabsf(x);
  float y;
  if (a >= 9.01091290f) {
    y = 1.0f;
  } else if (a < 0.55f) {
    float e = ks_expm1_posf(2.0f * a);
    y = e / (e + 2.0f);
  } else {
    float e = ks_expm1_posf(2.0f * a);
    y = 1.0f - 2.0f / (e + 2.0f);
  }
  return __builtin_copysignf(y, x);
}

// ---- double-precision transcendental functions (replayed in Go by mathref_test.go) ----
KS_IN double ks_pow2(int k) { return __builtin_bit_cast(double, (unsigned long long)(k + 1023) << 52); }
KS_IN double ks_scale(double p, int j) {
  KS_EXACT
  int j1 = j / 2;
  return (p * ks_pow2(j1)) * ks_pow2(j - j1);
}
KS_IN double ks_expm1_kernel(double r) {  // |r| <= 0.35
  KS_EXACT
  double p = 1.6059043836821613e-10;        // 1/13!
  p = __builtin_fma(p, r, 2.08767569878681e-09);  // 1/12!
  p = __builtin_fma(p, r, 2.505210838544172e-08); // 1/11!
  p = __builtin_fma(p, r, 2.755731922398589e-07); // 1/10!
  p = __builtin_fma(p, r, 2.7557319223985893e-06); // 1/9!
  p = __builtin_fma(p, r, 2.48015873015873e-05);  // 1/8!
  p = __builtin_fma(p, r, 0.0001984126984126984); // 1/7!
  p = __builtin_fma(p, r, 0.001388888888888889);  // 1/6!
  p = __builtin_fma(p, r, 0.008333333333333333);  // 1/5!
  p = __builtin_fma(p, r, 0.041666666666666664);  // 1/4!
  p = __builtin_fma(p, r, 0.16666666666666666);   // 1/3!
  p = __builtin_fma(p, r, 0.5);
  return __builtin_fma(p * r, r, r);
}
KS_IN double ks_exp(double x) {
  KS_EXACT
  if (x != x) return x + x;
  if (x > 709.782712893384) return __builtin_inf();
  if (x < -745.1332191019412) return 0.0;
  double j = __nvvm_round_d(x * 1.4426950408889634);
  double r = __builtin_fma(j, -0.6931471805599453, x);
  r = __builtin_fma(j, -2.3190468138462996e-17, r);
  double p = ks_expm1_kernel(r) + 1.0;
  return ks_scale(p, (int)j);
}
KS_IN double ks_exp2(double x) {
  KS_EXACT
  if (x != x) return x + x;
  if (x >= 1024.0) return __builtin_inf();
  if (x < -1075.0) return 0.0;
  double j = __nvvm_round_d(x);
  double f = x - j;
  double r = __builtin_fma(f, 0.6931471805599453, f * 2.3190468138462996e-17);
  double p = ks_expm1_kernel(r) + 1.0;
  return ks_scale(p, (int)j);
}
KS_IN double ks_log_kernel(double x, int *e) {  // finite x > 0
  KS_EXACT
  unsigned long long b = __builtin_bit_cast(unsigned long long, x);
  int k = 0;
  if (b < 0x0010000000000000ull) {
    b = __builtin_bit_cast(unsigned long long, x * 18014398509481984.0);  // 2^54
    k = -54;
  }
  k += (int)(b >> 52) - 1023;
  b = (b & 0x000fffffffffffffull) | 0x3ff0000000000000ull;
  if (b > 0x3ff6a09e667f3bccull) {
    b -= 0x0010000000000000ull;
    k += 1;
  }
  *e = k;
  double f = __builtin_bit_cast(double, b) - 1.0;
  double s = f / (2.0 + f);
  double z = s * s;
  double R = 0.08695652173913043;              // 2/23
  R = __builtin_fma(R, z, 0.09523809523809523); // 2/21
  R = __builtin_fma(R, z, 0.10526315789473684); // 2/19
  R = __builtin_fma(R, z, 0.11764705882352941); // 2/17
  R = __builtin_fma(R, z, 0.13333333333333333); // 2/15
  R = __builtin_fma(R, z, 0.15384615384615385); // 2/13
  R = __builtin_fma(R, z, 0.18181818181818182); // 2/11
  R = __builtin_fma(R, z, 0.2222222222222222);  // 2/9
  R = __builtin_fma(R, z, 0.2857142857142857);  // 2/7
  R = __builtin_fma(R, z, 0.4);                 // 2/5
  R = __builtin_fma(R, z, 0.6666666666666666);  // 2/3
  R = R * z;
  return __builtin_fma(-s, f - R, f);
}
KS_IN double ks_log_special(double x, int *done) {
  *done = 1;
  if (x != x) return x + x;
  if (x < 0.0) return __builtin_nan("");
  if (x == 0.0) return -__builtin_inf();
  if (x == __builtin_inf()) return x;
  *done = 0;
  return 0.0;
}
KS_IN double ks_log(double x) {
  KS_EXACT
  int done, e;
  double s = ks_log_special(x, &done);
  if (done) return s;
  double l = ks_log_kernel(x, &e);
  double fe = (double)e;
  return __builtin_fma(fe, 0.6931471805599453, __builtin_fma(fe, 2.3190468138462996e-17, l));
}
KS_IN double ks_log2(double x) {
  KS_EXACT
  int done, e;
  double s = ks_log_special(x, &done);
  if (done) return s;
  double l = ks_log_kernel(x, &e);
  return __builtin_fma(l, 1.4426950408889634, __builtin_fma(l, 2.0355273740931033e-17, (double)e));
}
KS_IN double ks_log10(double x) {
  KS_EXACT
  int done, e;
  double s = ks_log_special(x, &done);
  if (done) return s;
  double l = ks_log_kernel(x, &e);
  double fe = (double)e;
  double t = __builtin_fma(l, 0.4342944819032518, __builtin_fma(l, 1.098319650216765e-17, fe * -2.8037281277851704e-18));
  return __builtin_fma(fe, 0.3010299956639812, t);
}
// Reduces x to r + *rl in [-pi/4, pi/4] with x = q*pi/2 + r + *rl; returns q mod 4.
// Cody-Waite below |x| = 2^26 (*rl = 0); Payne-Hanek with a 192-bit window of 2/pi above.
KS_IN int ks_reduce(double x, double *r, double *rl) {
  KS_EXACT
  double ax = __builtin_fabs(x);
  *rl = 0.0;
  if (ax < 67108864.0) {
    double j = __nvvm_round_d(x * 0.6366197723675814);
    double t = __builtin_fma(j, -1.5707963267948966, x);
    t = __builtin_fma(j, -6.123233995736766e-17, t);
    t = __builtin_fma(j, 1.4973849048591698e-33, t);
    *r = t;
    return (int)(long long)j & 3;
  }
  unsigned long long b = __builtin_bit_cast(unsigned long long, ax);
  int E = (int)(b >> 52) - 1075;  // ax = m * 2^E, -26 <= E <= 971 here
  unsigned long long m = (b & 0x000fffffffffffffull) | 0x0010000000000000ull;
  int p = E - 1 + 31;  // table bit of the first bit of 2/pi needed (worth 2^-(E-1))
  int w = p >> 5, sh = p & 31;
  unsigned int u[6];  // the 192-bit window, least significant word first
  for (int i = 0; i < 6; i++) {
    unsigned int hi = ks_two_over_pi[w + 5 - i], lo = ks_two_over_pi[w + 6 - i];
    u[i] = sh ? (hi << sh) | (lo >> (32 - sh)) : hi;
  }
  unsigned int v0 = (unsigned int)m, v1 = (unsigned int)(m >> 32);
  unsigned int z[6] = {0, 0, 0, 0, 0, 0};  // m * window mod 2^192
  unsigned long long carry = 0;
  for (int i = 0; i < 6; i++) {
    unsigned long long t = (unsigned long long)u[i] * v0 + z[i] + carry;
    z[i] = (unsigned int)t;
    carry = t >> 32;
  }
  carry = 0;
  for (int i = 0; i + 1 < 6; i++) {
    unsigned long long t = (unsigned long long)u[i] * v1 + z[i + 1] + carry;
    z[i + 1] = (unsigned int)t;
    carry = t >> 32;
  }
  // the top 2 bits are q mod 4; the 190 below are the fraction
  int q = (int)(z[5] >> 30);
  unsigned long long H = ((unsigned long long)(z[5] & 0x3fffffffu) << 32) | z[4];
  unsigned long long M = ((unsigned long long)z[3] << 32) | z[2];
  unsigned long long L = ((unsigned long long)z[1] << 32) | z[0];
  int neg = (H >> 61) & 1;  // fraction >= 1/2: use fraction - 1
  if (neg) {
    q += 1;
    H = ~H & 0x3fffffffffffffffull;
    M = ~M;
    L = ~L;
    L += 1;
    if (L == 0) {
      M += 1;
      if (M == 0) H += 1;
    }
  }
  // normalise the 192-bit H:M:L so that its leading one is bit 191
  int lz = 0;
  while (H == 0 && lz < 128) {
    H = M;
    M = L;
    L = 0;
    lz += 64;
  }
  double fh = 0.0, fl = 0.0;
  if (H != 0) {
    int c = __builtin_clzg(H, 64);
    if (c) {
      H = (H << c) | (M >> (64 - c));
      M = (M << c) | (L >> (64 - c));
    }
    lz += c;
    unsigned long long A = H >> 11;               // 53 bits
    unsigned long long B = (H << 53) | (M >> 11);  // the next 64 bits
    // fraction = A * 2^(-51-lz) + B * 2^(-115-lz)  (field of 190 bits after 2 integer bits)
    fh = (double)A * ks_pow2(-51 - lz);
    fl = (double)B * ks_pow2(-115 - lz);
  }
  // r = fraction * pi/2, as a double-double
  double rh = fh * 1.5707963267948966;
  double rlo = __builtin_fma(fh, 1.5707963267948966, -rh) + __builtin_fma(fh, 6.123233995736766e-17, fl * 1.5707963267948966);
  double h = rh + rlo;
  rlo = rlo - (h - rh);
  if (neg != (x < 0.0)) {
    h = -h;
    rlo = -rlo;
  }
  if (x < 0.0) q = -q;
  *r = h;
  *rl = rlo;
  return q & 3;
}
KS_IN double ks_sin_kernel(double r) {
  KS_EXACT
  double z = r * r;
  double p = 2.8114572543455206e-15;              // 1/17!
  p = __builtin_fma(p, z, -7.647163731819816e-13); // -1/15!
  p = __builtin_fma(p, z, 1.6059043836821613e-10); // 1/13!
  p = __builtin_fma(p, z, -2.505210838544172e-08); // -1/11!
  p = __builtin_fma(p, z, 2.7557319223985893e-06); // 1/9!
  p = __builtin_fma(p, z, -0.0001984126984126984); // -1/7!
  p = __builtin_fma(p, z, 0.008333333333333333);   // 1/5!
  p = __builtin_fma(p, z, -0.16666666666666666);   // -1/3!
  return __builtin_fma(p * z, r, r);
}
KS_IN double ks_cos_kernel(double r) {
  KS_EXACT
  double z = r * r;
  double p = 4.779477332387385e-14;                // 1/16!
  p = __builtin_fma(p, z, -1.1470745597729725e-11); // -1/14!
  p = __builtin_fma(p, z, 2.08767569878681e-09);    // 1/12!
  p = __builtin_fma(p, z, -2.755731922398589e-07);  // -1/10!
  p = __builtin_fma(p, z, 2.48015873015873e-05);    // 1/8!
  p = __builtin_fma(p, z, -0.001388888888888889);   // -1/6!
  p = __builtin_fma(p, z, 0.041666666666666664);    // 1/4!
  p = __builtin_fma(p, z, -0.5);
  return __builtin_fma(p, z, 1.0);
}
KS_IN double ks_sin(double x) {
  KS_EXACT
  if (x == 0.0) return x;  // keeps the sign of zero
  if (x != x || __builtin_fabs(x) == __builtin_inf()) return x - x;
  double r, rl;
  int q = ks_reduce(x, &r, &rl);
  // sin(r + rl) = sin r + rl cos r; cos(r + rl) = cos r - rl sin r (rl is tiny)
  double v = (q & 1) ? __builtin_fma(-rl, r, ks_cos_kernel(r)) : __builtin_fma(rl, __builtin_fma(-0.5 * r, r, 1.0), ks_sin_kernel(r));
  return (q & 2) ? -v : v;
}
KS_IN double ks_cos(double x) {
  KS_EXACT
  if (x != x || __builtin_fabs(x) == __builtin_inf()) return x - x;
  double r, rl;
  int q = ks_reduce(x, &r, &rl);
  double v = (q & 1) ? __builtin_fma(rl, __builtin_fma(-0.5 * r, r, 1.0), ks_sin_kernel(r)) : __builtin_fma(-rl, r, ks_cos_kernel(r));
  return ((q + 1) & 2) ? -v : v;
}
KS_IN double ks_expm1_pos(double t) {
  KS_EXACT
  double j = __nvvm_round_d(t * 1.4426950408889634);
  double r = __builtin_fma(j, -0.6931471805599453, t);
  r = __builtin_fma(j, -2.3190468138462996e-17, r);
  double p = ks_expm1_kernel(r);
  double s = ks_pow2((int)j);
  return __builtin_fma(s, p, s - 1.0);
}
KS_IN double ks_tanh(double x) {
  KS_EXACT
  if (x != x) return x + x;
  double a = __builtin_fabs(x);
  double y;
  if (a >= 19.06154746539849) {
    y = 1.0;
  } else if (a < 0.55) {
    double e = ks_expm1_pos(2.0 * a);
    y = e / (e + 2.0);
  } else {
    double e = ks_expm1_pos(2.0 * a);
    y = 1.0 - 2.0 / (e + 2.0);
  }
  return __builtin_copysign(y, x);
}
// pow special cases (C99 F.9.4.4); returns 1 in *done when the result is settled.
KS_IN double ks_pow_special(double x, double y, int *done, int *neg) {
  *done = 1;
  *neg = 0;
  if (y == 0.0 || x == 1.0) return 1.0;
  if (x != x || y != y) return x + y;
  double ay = __builtin_fabs(y);
  int yint = __nvvm_trunc_d(y) == y;
  int yodd = yint && ay < 9007199254740992.0 && __nvvm_trunc_d(y * 0.5) != y * 0.5;
  if (ay == __builtin_inf()) {
    double ax = __builtin_fabs(x);
    if (ax == 1.0) return 1.0;
    return ((ax > 1.0) == (y > 0.0)) ? __builtin_inf() : 0.0;
  }
  if (x == 0.0) {
    double z = y < 0.0 ? __builtin_inf() : 0.0;
    return yodd ? __builtin_copysign(z, x) : z;
  }
  if (x == -__builtin_inf() || x == __builtin_inf()) {
    double z = y < 0.0 ? 0.0 : __builtin_inf();
    return (x < 0.0 && yodd) ? -z : z;
  }
  if (x < 0.0) {
    if (!yint) return __builtin_nan("");
    *neg = yodd;
  }
  *done = 0;
  return 0.0;
}
// log(x) as a double-double hi + *lo for finite x > 0: log(m) = 2t + 2t^3/3 + ...
// with t = (m-1)/(m+1) carried to about 100 bits, plus e*ln2 in two parts.
KS_IN double ks_log_dd(double x, double *lo) {
  KS_EXACT
  unsigned long long b = __builtin_bit_cast(unsigned long long, x);
  int k = 0;
  if (b < 0x0010000000000000ull) {
    b = __builtin_bit_cast(unsigned long long, x * 18014398509481984.0);  // 2^54
    k = -54;
  }
  k += (int)(b >> 52) - 1023;
  b = (b & 0x000fffffffffffffull) | 0x3ff0000000000000ull;
  if (b > 0x3ff6a09e667f3bccull) {
    b -= 0x0010000000000000ull;
    k += 1;
  }
  double m = __builtin_bit_cast(double, b);
  double a = m - 1.0;  // exact
  double dh = m + 1.0;
  double bb = dh - m;
  double dl = (m - (dh - bb)) + (1.0 - bb);  // m + 1 = dh + dl exactly
  double th = a / dh;
  double r = __builtin_fma(-th, dh, a);
  r = __builtin_fma(-th, dl, r);
  double tl = r / dh;  // t = th + tl
  double z = th * th;
  double R = 0.08695652173913043;              // 2/23
  R = __builtin_fma(R, z, 0.09523809523809523); // 2/21
  R = __builtin_fma(R, z, 0.10526315789473684); // 2/19
  R = __builtin_fma(R, z, 0.11764705882352941); // 2/17
  R = __builtin_fma(R, z, 0.13333333333333333); // 2/15
  R = __builtin_fma(R, z, 0.15384615384615385); // 2/13
  R = __builtin_fma(R, z, 0.18181818181818182); // 2/11
  R = __builtin_fma(R, z, 0.2222222222222222);  // 2/9
  R = __builtin_fma(R, z, 0.2857142857142857);  // 2/7
  R = __builtin_fma(R, z, 0.4);                 // 2/5
  R = __builtin_fma(R, z, 0.6666666666666666);  // 2/3
  R = R * z;
  double hi = 2.0 * th;
  double low = __builtin_fma(th, R, 2.0 * tl);
  double fe = (double)k;
  double eh = fe * 0.6931471805598903;  // ln2 with 42 bits: exact product
  double el = fe * 5.497923018708371e-14;
  double s = eh + hi;
  bb = s - eh;
  double err = (eh - (s - bb)) + (hi - bb);
  double l = err + (low + el);
  double h2 = s + l;
  *lo = l - (h2 - s);
  return h2;
}
KS_IN double ks_pow(double x, double y) {
  KS_EXACT
  int done, neg;
  double s = ks_pow_special(x, y, &done, &neg);
  if (done) return s;
  double ll;
  double lh = ks_log_dd(__builtin_fabs(x), &ll);
  double ph = y * lh;
  double pl = __builtin_fma(y, lh, -ph) + y * ll;  // y*log|x| = ph + pl
  double v;
  if (ph > 709.782712893384) {
    v = __builtin_inf();
  } else if (ph < -745.1332191019412) {
    v = 0.0;
  } else {
    double j = __nvvm_round_d(ph * 1.4426950408889634);
    double r = __builtin_fma(j, -0.6931471805599453, ph);
    r = r + pl;
    r = __builtin_fma(j, -2.3190468138462996e-17, r);
    v = ks_scale(ks_expm1_kernel(r) + 1.0, (int)j);
  }
  return neg ? -v : v;
}
KS_IN float ks_powf(float x, float y) {
  KS_EXACT
  int done, neg;
  double s = ks_pow_special((double)x, (double)y, &done, &neg);
  if (done) return (float)s;
  double v = ks_exp2((double)y * ks_log2(__builtin_fabs((double)x)));
  return (float)(neg ? -v : v);
}

// ---- more single-precision functions, computed in double (f64 instructions) ----
KS_IN float ks_tanf(float x) {
  KS_EXACT
  if (x == 0.0f) return x;  // keeps the sign of zero
  double d = (double)x;
  return (float)(ks_sin(d) / ks_cos(d));
}
KS_IN float ks_expm1f(float x) {
  KS_EXACT
  if (x != x) return x + x;
  if (x > 89.0f) return __builtin_inff();
  if (x < -20.0f) return -1.0f;
  return (float)ks_expm1_pos((double)x);  // valid for t >= -37 as well
}
KS_IN float ks_log1pf(float x) {
  KS_EXACT
  if (x != x) return x + x;
  if (x < -1.0f) return __builtin_nanf("");
  if (x == -1.0f) return -__builtin_inff();
  if (x == __builtin_inff()) return x;
  double d = (double)x;
  if (__builtin_fabs(d) < 5.9604644775390625e-08) return (float)__builtin_fma(-0.5 * d, d, d);  // |x| < 2^-24
  return (float)ks_log(1.0 + d);  // 1 + x is exact in double here
}
KS_IN float ks_sinhf(float x) {
  KS_EXACT
  if (x != x) return x + x;
  double a = __builtin_fabs((double)x);
  double y;
  if (a > 100.0) {
    y = __builtin_inf();
  } else {
    double e = ks_expm1_pos(a);
    y = 0.5 * (e + e / (e + 1.0));  // (e^a - e^-a) / 2 without cancellation
  }
  return (float)__builtin_copysign(y, (double)x);
}
KS_IN float ks_coshf(float x) {
  KS_EXACT
  if (x != x) return x + x;
  double a = __builtin_fabs((double)x);
  if (a > 100.0) return __builtin_inff();
  double e = ks_exp(a);
  return (float)(0.5 * (e + 1.0 / e));
}
KS_IN float ks_hypotf(float x, float y) {
  KS_EXACT
  if (__builtin_fabsf(x) == __builtin_inff() || __builtin_fabsf(y) == __builtin_inff()) return __builtin_inff();
  double dx = (double)x, dy = (double)y;
  return (float)__nvvm_sqrt_rn_d(__builtin_fma(dx, dx, dy * dy));  // both products exact
}
// exp10f in double: exp(x * ln 10) with the double exp above, rounded once to float.
KS_IN float ks_exp10f(float x) {
  KS_EXACT
  if (x != x) return x + x;
  if (x > 38.6f) return __builtin_inff();
  if (x < -46.0f) return 0.0f;
  return (float)ks_exp((double)x * 2.302585092994046);
}
KS_NV float __nv_tanf(float a) { return ks_tanf(a); }
KS_NV float __nv_expm1f(float a) { return ks_expm1f(a); }
KS_NV float __nv_log1pf(float a) { return ks_log1pf(a); }
KS_NV float __nv_sinhf(float a) { return ks_sinhf(a); }
KS_NV float __nv_coshf(float a) { return ks_coshf(a); }
KS_NV float __nv_hypotf(float a, float b) { return ks_hypotf(a, b); }

#if defined(__CLANG_GPU_APPROX_TRANSCENDENTALS__)
// -use_fast_math: like nvcc, expf, exp2f, log10f and powf become the fast intrinsics
// (clang's header already maps sinf, cosf, logf, log2f and sincosf).
KS_NV float __nv_expf(float a) { return __nv_fast_expf(a); }
KS_NV float __nv_exp2f(float a) { return __nvvm_ex2_approx_f(a); }
KS_NV float __nv_log10f(float a) { return __nv_fast_log10f(a); }
KS_NV float __nv_exp10f(float a) { return __nv_fast_exp10f(a); }
KS_NV float __nv_powf(float a, float b) { return __nv_fast_powf(a, b); }
#else
KS_NV float __nv_expf(float a) { return ks_expf(a); }
KS_NV float __nv_exp10f(float a) { return ks_exp10f(a); }
KS_NV float __nv_exp2f(float a) { return ks_exp2f(a); }
KS_NV float __nv_log10f(float a) { return ks_log10f(a); }
KS_NV float __nv_powf(float a, float b) { return ks_powf(a, b); }
#endif
KS_NV float __nv_logf(float a) { return ks_logf(a); }
KS_NV float __nv_log2f(float a) { return ks_log2f(a); }
KS_NV float __nv_sinf(float a) { return ks_sinf(a); }
KS_NV float __nv_cosf(float a) { return ks_cosf(a); }
KS_NV void __nv_sincosf(float a, float *s, float *c) { *s = ks_sinf(a); *c = ks_cosf(a); }
KS_NV float __nv_tanhf(float a) { return ks_tanhf(a); }
KS_NV double __nv_exp(double a) { return ks_exp(a); }
KS_NV double __nv_exp2(double a) { return ks_exp2(a); }
KS_NV double __nv_log(double a) { return ks_log(a); }
KS_NV double __nv_log2(double a) { return ks_log2(a); }
KS_NV double __nv_log10(double a) { return ks_log10(a); }
KS_NV double __nv_sin(double a) { return ks_sin(a); }
KS_NV double __nv_cos(double a) { return ks_cos(a); }
KS_NV void __nv_sincos(double a, double *s, double *c) { *s = ks_sin(a); *c = ks_cos(a); }
KS_NV double __nv_tanh(double a) { return ks_tanh(a); }
KS_NV double __nv_pow(double a, double b) { return ks_pow(a, b); }

// ---- exact functions: fmod, remainder, remquo, frexp, modf, logb, ilogb, nextafter ----
// (the result is representable, so these are exact: 0 ulp, as CUDA documents)
// |x| mod |y| on significands: x = mx*2^ex, y = my*2^ey with ex >= ey; *q gets the
// low 3 bits of the integer quotient. Long division in chunks of `step` bits.
KS_IN unsigned long long ks_modbits(unsigned long long mx, int ex, unsigned long long my, int ey, int step, unsigned int *q) {
  unsigned long long qq = mx / my;
  mx = mx % my;
  int d = ex - ey;
  while (d > 0) {
    int k = d < step ? d : step;
    mx <<= k;
    qq = (qq << k) + mx / my;
    mx = mx % my;
    d -= k;
  }
  *q = (unsigned int)(qq & 7u);
  return mx;
}
// r = x - n*y with n = trunc(x/y) (rem = 0) or n = round-half-even(x/y) (rem = 1).
KS_IN float ks_fmodf(float x, float y, int rem, int *quo) {
  *quo = 0;
  float ax = __builtin_fabsf(x), ay = __builtin_fabsf(y);
  if (x != x || y != y || ax == __builtin_inff() || ay == 0.0f) return __builtin_nanf("");
  if (ay == __builtin_inff()) return x;
  unsigned int q = 0;
  float r = ax;
  if (ax >= ay) {
    unsigned int bx = __builtin_bit_cast(unsigned int, ax), by = __builtin_bit_cast(unsigned int, ay);
    int ex = (int)(bx >> 23), ey = (int)(by >> 23);
    unsigned long long mx = bx & 0x7fffffu, my = by & 0x7fffffu;
    if (ex) mx |= 0x800000u; else ex = 1;
    if (ey) my |= 0x800000u; else ey = 1;
    unsigned long long m = ks_modbits(mx, ex, my, ey, 39, &q);
    r = (float)m * ks_pow2f(ey - 150 > -126 ? ey - 150 : -126) * (ey - 150 > -126 ? 1.0f : ks_pow2f(ey - 150 + 126));
  }
  if (rem) {
    // n rounds to nearest even: subtract one more |y| if r > |y|/2, or at a tie with an odd quotient.
    float h = r - ay;  // exact: r < ay
    if (r > ay - r || (r == ay - r && (q & 1u))) {
      r = h;
      q += 1;
    }
  }
  *quo = (int)(q & 7u);
  if ((__builtin_bit_cast(unsigned int, x) ^ __builtin_bit_cast(unsigned int, y)) >> 31) *quo = -*quo;
  return __builtin_copysignf(1.0f, x) * r;
}
KS_IN double ks_fmod(double x, double y, int rem, int *quo) {
  *quo = 0;
  double ax = __builtin_fabs(x), ay = __builtin_fabs(y);
  if (x != x || y != y || ax == __builtin_inf() || ay == 0.0) return __builtin_nan("");
  if (ay == __builtin_inf()) return x;
  unsigned int q = 0;
  double r = ax;
  if (ax >= ay) {
    unsigned long long bx = __builtin_bit_cast(unsigned long long, ax), by = __builtin_bit_cast(unsigned long long, ay);
    int ex = (int)(bx >> 52), ey = (int)(by >> 52);
    unsigned long long mx = bx & 0xfffffffffffffull, my = by & 0xfffffffffffffull;
    if (ex) mx |= 0x10000000000000ull; else ex = 1;
    if (ey) my |= 0x10000000000000ull; else ey = 1;
    unsigned long long m = ks_modbits(mx, ex, my, ey, 10, &q);
    int e = ey - 1075;
    r = e >= -1022 ? (double)m * ks_pow2(e) : ((double)m * ks_pow2(e + 54)) * ks_pow2(-54);
  }
  if (rem) {
    double h = r - ay;
    if (r > ay - r || (r == ay - r && (q & 1u))) {
      r = h;
      q += 1;
    }
  }
  *quo = (int)(q & 7u);
  if ((__builtin_bit_cast(unsigned long long, x) ^ __builtin_bit_cast(unsigned long long, y)) >> 63) *quo = -*quo;
  return __builtin_copysign(1.0, x) * r;
}
KS_NV float __nv_fmodf(float a, float b) { int q; return ks_fmodf(a, b, 0, &q); }
KS_NV float __nv_remainderf(float a, float b) { int q; return ks_fmodf(a, b, 1, &q); }
KS_NV float __nv_remquof(float a, float b, int *q) { return ks_fmodf(a, b, 1, q); }
KS_NV double __nv_fmod(double a, double b) { int q; return ks_fmod(a, b, 0, &q); }
KS_NV double __nv_remainder(double a, double b) { int q; return ks_fmod(a, b, 1, &q); }
KS_NV double __nv_remquo(double a, double b, int *q) { return ks_fmod(a, b, 1, q); }
KS_NV float __nv_frexpf(float a, int *e) {
  *e = 0;
  if (a == 0.0f || a != a || __builtin_fabsf(a) == __builtin_inff()) return a + a;
  unsigned int b = __builtin_bit_cast(unsigned int, a);
  int k = 0;
  if ((b & 0x7f800000u) == 0) {  // subnormal
    b = __builtin_bit_cast(unsigned int, a * 16777216.0f);
    k = -24;
  }
  *e = k + (int)((b >> 23) & 0xffu) - 126;
  return __builtin_bit_cast(float, (b & 0x807fffffu) | 0x3f000000u);
}
KS_NV double __nv_frexp(double a, int *e) {
  *e = 0;
  if (a == 0.0 || a != a || __builtin_fabs(a) == __builtin_inf()) return a + a;
  unsigned long long b = __builtin_bit_cast(unsigned long long, a);
  int k = 0;
  if ((b & 0x7ff0000000000000ull) == 0) {
    b = __builtin_bit_cast(unsigned long long, a * 18014398509481984.0);
    k = -54;
  }
  *e = k + (int)((b >> 52) & 0x7ffu) - 1022;
  return __builtin_bit_cast(double, (b & 0x800fffffffffffffull) | 0x3fe0000000000000ull);
}
KS_NV float __nv_modff(float a, float *ip) {
  float t = __nvvm_trunc_f(a);
  *ip = t;
  if (__builtin_fabsf(a) == __builtin_inff()) return __builtin_copysignf(0.0f, a);
  return __builtin_copysignf(a - t, a);
}
KS_NV double __nv_modf(double a, double *ip) {
  double t = __nvvm_trunc_d(a);
  *ip = t;
  if (__builtin_fabs(a) == __builtin_inf()) return __builtin_copysign(0.0, a);
  return __builtin_copysign(a - t, a);
}
KS_NV int __nv_ilogbf(float a) {
  if (a == 0.0f) return (int)0x80000000;  // FP_ILOGB0
  if (a != a) return (int)0x80000000;     // FP_ILOGBNAN
  if (__builtin_fabsf(a) == __builtin_inff()) return 0x7fffffff;
  int e;
  __nv_frexpf(a, &e);
  return e - 1;
}
KS_NV int __nv_ilogb(double a) {
  if (a == 0.0) return (int)0x80000000;
  if (a != a) return (int)0x80000000;
  if (__builtin_fabs(a) == __builtin_inf()) return 0x7fffffff;
  int e;
  __nv_frexp(a, &e);
  return e - 1;
}
KS_NV float __nv_logbf(float a) {
  if (a != a) return a + a;
  if (a == 0.0f) return -__builtin_inff();
  if (__builtin_fabsf(a) == __builtin_inff()) return __builtin_inff();
  return (float)__nv_ilogbf(a);
}
KS_NV double __nv_logb(double a) {
  if (a != a) return a + a;
  if (a == 0.0) return -__builtin_inf();
  if (__builtin_fabs(a) == __builtin_inf()) return __builtin_inf();
  return (double)__nv_ilogb(a);
}
KS_NV float __nv_nextafterf(float a, float b) {
  if (a != a || b != b) return a + b;
  if (a == b) return b;
  if (a == 0.0f) return __builtin_copysignf(__builtin_bit_cast(float, 1u), b);
  unsigned int u = __builtin_bit_cast(unsigned int, a);
  u += ((a < b) == (a > 0.0f)) ? 1u : 0xffffffffu;
  return __builtin_bit_cast(float, u);
}
KS_NV double __nv_nextafter(double a, double b) {
  if (a != a || b != b) return a + b;
  if (a == b) return b;
  if (a == 0.0) return __builtin_copysign(__builtin_bit_cast(double, 1ull), b);
  unsigned long long u = __builtin_bit_cast(unsigned long long, a);
  u += ((a < b) == (a > 0.0)) ? 1ull : ~0ull;
  return __builtin_bit_cast(double, u);
}

#undef KS_NV
#undef KS_IN
#undef KS_EXACT
#endif // KERNELSCOPE_LIBDEVICE_H
