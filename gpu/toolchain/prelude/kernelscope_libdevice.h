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
// ks_fdiv_rn is the prelude's own float division: div.rn (.ftz under __CUDA_FTZ, as a
// plain '/'), whatever the cell's flags (-use_fast_math makes the cell's '/' div.approx).
KS_IN float ks_fdiv_rn(float a, float b) { return __nvvm_reflect("__CUDA_FTZ") ? __nvvm_div_rn_ftz_f(a, b) : __nvvm_div_rn_f(a, b); }

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
// sqrtf as libdevice's: sqrt.rn (.ftz under __CUDA_FTZ), sqrt.approx.ftz under
// -use_fast_math, which implies -prec-sqrt=false (libm0/1/2.ptx's hypotf).
KS_NV float __nv_sqrtf(float a) {
#if defined(__CLANG_GPU_APPROX_TRANSCENDENTALS__)
  return __nvvm_sqrt_approx_ftz_f(a);
#else
  return __nvvm_reflect("__CUDA_FTZ") ? __nvvm_sqrt_rn_ftz_f(a) : __nvvm_sqrt_rn_f(a);
#endif
}
KS_NV double __nv_sqrt(double a) { return __nvvm_sqrt_rn_d(a); }
KS_NV float __nv_rsqrtf(float a) { return __nvvm_reflect("__CUDA_FTZ") ? __nvvm_rsqrt_approx_ftz_f(a) : __nvvm_rsqrt_approx_f(a); }
KS_NV double __nv_rsqrt(double a) { return __nvvm_div_rn_d(1.0, __nvvm_sqrt_rn_d(a)); }
// __frsqrt_rn is correctly rounded on the H200 (nvcc 13: MUFU.RSQ and a Newton step;
// 16384/16384 of testdata/measured/mufu's inputs): 1/sqrt in double, each step correctly
// rounded, then to float. The double rounding is harmless for every f32 input
// (checked exhaustively: docs/special-functions.md).
KS_NV float __nv_frsqrt_rn(float a) { return __nvvm_d2f_rn(__nvvm_div_rn_d(1.0, __nvvm_sqrt_rn_d((double)a))); }
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
KS_IN float ks_nv_ex2_(float x) { return __nvvm_reflect("__CUDA_FTZ") ? __nvvm_ex2_approx_ftz_f(x) : __nvvm_ex2_approx_f(x); }
KS_IN float ks_nv_sin_(float x) { return __nvvm_reflect("__CUDA_FTZ") ? __nvvm_sin_approx_ftz_f(x) : __nvvm_sin_approx_f(x); }
KS_IN float ks_nv_cos_(float x) { return __nvvm_reflect("__CUDA_FTZ") ? __nvvm_cos_approx_ftz_f(x) : __nvvm_cos_approx_f(x); }
KS_IN float ks_nv_lg2_(float x) { return __nvvm_reflect("__CUDA_FTZ") ? __nvvm_lg2_approx_ftz_f(x) : __nvvm_lg2_approx_f(x); }
// Under __CUDA_FTZ (-ftz=true, -use_fast_math) nvcc emits the .ftz forms of these
// (mul.ftz, ex2/lg2.approx.ftz: testdata/measured/libm/libm1.ptx, libm2.ptx); the
// plain multiplication below becomes mul.rn.ftz there (contraction off).
KS_NV float __nv_fast_expf(float a) { KS_EXACT return ks_nv_ex2_(a * __builtin_bit_cast(float, 0x3FB8AA3Bu)); }
KS_NV float __nv_fast_exp10f(float a) { KS_EXACT return ks_nv_ex2_(a * __builtin_bit_cast(float, 0x40549A78u)); }
KS_NV float __nv_fast_log2f(float a) { return ks_nv_lg2_(a); }
KS_NV float __nv_fast_logf(float a) { KS_EXACT return ks_nv_lg2_(a) * __builtin_bit_cast(float, 0x3F317218u); }
KS_NV float __nv_fast_log10f(float a) { KS_EXACT return ks_nv_lg2_(a) * __builtin_bit_cast(float, 0x3E9A209Bu); }
KS_NV float __nv_fast_sinf(float a) { return ks_nv_sin_(a); }
KS_NV float __nv_fast_cosf(float a) { return ks_nv_cos_(a); }
KS_NV float __nv_fast_tanf(float a) {
  return __nvvm_reflect("__CUDA_FTZ") ? __nvvm_div_approx_ftz_f(ks_nv_sin_(a), ks_nv_cos_(a)) : __nvvm_div_approx_f(ks_nv_sin_(a), ks_nv_cos_(a));
}
KS_NV void __nv_fast_sincosf(float a, float *s, float *c) { *s = ks_nv_sin_(a); *c = ks_nv_cos_(a); }
KS_NV float __nv_fast_powf(float a, float b) { KS_EXACT return ks_nv_ex2_(b * ks_nv_lg2_(a)); }
// -use_fast_math (clang: -fgpu-flush-denormals-to-zero, __CUDA_FTZ) makes nvcc's
// __fdividef and rsqrtf the .ftz forms (measured: testdata/measured/mufu/fastmath1.ptx).
KS_NV float __nv_fast_fdividef(float a, float b) {
  return __nvvm_reflect("__CUDA_FTZ") ? __nvvm_div_approx_ftz_f(a, b) : __nvvm_div_approx_f(a, b);
}

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
  float s = ks_fdiv_rn(f, 2.0f + f);
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
    y = ks_fdiv_rn(e, e + 2.0f);
  } else {
    float e = ks_expm1_posf(2.0f * a);
    y = 1.0f - ks_fdiv_rn(2.0f, e + 2.0f);
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
// The float functions of kernelscope_nvmathf.h follow nvcc's operation sequences
// (bit-exact with the H200: docs/special-functions.md section 6); the ks_* versions
// above stay as the prelude's own algorithms that other functions build on.
#include "kernelscope_nvmathf.h"
#if defined(__CLANG_GPU_APPROX_TRANSCENDENTALS__)
KS_NV float __nv_tanf(float a) { return __nv_fast_tanf(a); }  // nvcc -use_fast_math: __tanf
#else
KS_NV float __nv_tanf(float a) { return ks_nv_tanf(a); }
#endif
KS_NV float __nv_expm1f(float a) { return ks_nv_expm1f(a); }
KS_NV float __nv_log1pf(float a) { return ks_nv_log1pf(a); }
KS_NV float __nv_sinhf(float a) { return ks_nv_sinhf(a); }
KS_NV float __nv_coshf(float a) { return ks_nv_coshf(a); }
KS_NV float __nv_hypotf(float a, float b) { return ks_nv_hypotf(a, b); }

#if defined(__CLANG_GPU_APPROX_TRANSCENDENTALS__)
// -use_fast_math: like nvcc, expf, exp2f, log10f and powf become the fast intrinsics
// (clang's header already maps sinf, cosf, logf, log2f and sincosf), and tanhf
// becomes tanh.approx.f32 (testdata/measured/libm/libm1.ptx).
KS_NV float __nv_expf(float a) { return __nv_fast_expf(a); }
KS_NV float __nv_exp2f(float a) { return ks_nv_ex2_(a); }
KS_NV float __nv_log10f(float a) { return __nv_fast_log10f(a); }
KS_NV float __nv_exp10f(float a) { return __nv_fast_exp10f(a); }
KS_NV float __nv_powf(float a, float b) { return __nv_fast_powf(a, b); }
KS_NV float __nv_tanhf(float a) {
  float r;
  asm("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(a));  // no clang builtin for it
  return r;
}
#else
KS_NV float __nv_expf(float a) { return ks_nv_expf(a); }
KS_NV float __nv_exp10f(float a) { return ks_nv_exp10f(a); }
KS_NV float __nv_exp2f(float a) { return ks_nv_exp2f(a); }
KS_NV float __nv_log10f(float a) { return ks_nv_logf_q(a, 2); }
KS_NV float __nv_powf(float a, float b) { return ks_nv_powf(a, b); }
KS_NV float __nv_tanhf(float a) { return ks_nv_tanhf(a); }
#endif
KS_NV float __nv_logf(float a) { return ks_nv_logf_q(a, 0); }
KS_NV float __nv_log2f(float a) { return ks_nv_logf_q(a, 1); }
KS_NV float __nv_sinf(float a) { return ks_nv_sinf(a); }
KS_NV float __nv_cosf(float a) { return ks_nv_cosf(a); }
KS_NV void __nv_sincosf(float a, float *s, float *c) { *s = ks_nv_sinf(a); *c = ks_nv_cosf(a); }
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
// powif/powi (CUDA's crt/math_functions.h; pow(float, int) and pow(double, int)
// call them): pow with the exponent converted, (float)b rounding to nearest for
// |b| > 2^24 as a cvt.rn.f32.s32 does; the accurate powf also under
// -use_fast_math (assumed: libdevice's __nv_powif calls its own powf, not the
// header's fast mapping).
// Not yet checked against nvcc's PTX or the H200 (scripts/fastgold records both).
KS_NV float __nv_powif(float a, int b) { return ks_nv_powf(a, (float)b); }
KS_NV double __nv_powi(double a, int b) { return ks_pow(a, (double)b); }

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

// ---- special functions (replayed in Go by mathspecial_test.go) ----
// Each works in double with double-double corrections; the float version is the
// double result rounded once (so it emits f64 instructions). Polynomial coefficients
// are interpolants at Chebyshev nodes, fitted in math/big by mathbig_test.go.
#define KS_PI_HI 3.141592653589793
#define KS_PI_LO 1.2246467991473532e-16
#define KS_PIO2_HI 1.5707963267948966
#define KS_PIO2_LO 6.123233995736766e-17
#define KS_2SQRTPI_HI 1.1283791670955126
#define KS_2SQRTPI_LO 1.533545961316588e-17
#define KS_RSQRT2_HI 0.7071067811865476
#define KS_RSQRT2_LO -4.833646656726457e-17
#define KS_SQRTPI_2 0.886226925452758
#define KS_RSQRTPI 0.5641895835477563
#define KS_SQRT2 1.4142135623730951
// atan(k/8) as double-doubles (from math/big)
static constexpr double ks_atan_hi[9] = {0, 0.12435499454676144, 0.24497866312686414, 0.35877067027057225, 0.4636476090008061,
    0.5585993153435624, 0.6435011087932844, 0.7188299996216245, 0.7853981633974483};
static constexpr double ks_atan_lo[9] = {0, -3.1253241424539383e-18, 1.0698755618734451e-17, -2.4623815582638635e-17, 2.2698777452961687e-17,
    -5.4556305485916264e-18, 1.5834785051444286e-17, -2.1478388444456983e-17, 3.061616997868383e-17};
// atan's Taylor coefficients after t: -1/15 ... -1/3, highest first
static constexpr double ks_atanP[7] = {-0.06666666666666667, 0.07692307692307693, -0.09090909090909091, 0.1111111111111111,
    -0.14285714285714285, 0.2, -0.3333333333333333};
// polynomial fits (mathbig_test.go), highest power first
static constexpr double ks_erfP[16] = {-1.964236133686805e-14, 4.2604850949292194e-13, -6.681447182476303e-12, 9.41989815178708e-11, -1.2290371081417643e-09, 1.4807184714778181e-08, -1.636584444873744e-07, 1.6462114361038428e-06, -1.4925650358343616e-05, 0.0001205533298178917, -0.0008548327023450851, 0.005223977625442188, -0.026866170645131252, 0.11283791670955126, -0.37612638903183754, 1.1283791670955126};
static constexpr double ks_erfcx1[18] = {-1.3223499032928838e-07, 4.45144412960667e-07, -1.4237320376078968e-06, 4.542475591917575e-06, -1.408848644133205e-05, 4.237255987767501e-05, -0.00012335437449096325, 0.00034675065999351383, -0.0009385120614937002, 0.00243763736082092, -0.0060515322972083474, 0.014289198665935013, -0.03189726203968182, 0.06679054252756873, -0.1298360619948811, 0.2309581315512983, -0.3679726916557954, 0.5069376502931449};
static constexpr double ks_erfcx2[21] = {5.5768512096422995e-11, -2.2633906949900988e-10, 8.282521943813097e-10, -3.2232218342005464e-09, 1.2325489775423483e-08, -4.59708313633249e-08, 1.675494628052676e-07, -5.960817704990839e-07, 2.0669708158872572e-06, -6.974991687692405e-06, 2.2864312210489412e-05, -7.265892219035702e-05, 0.0002233099443531609, -0.0006619300664118113, 0.0018861348770297256, -0.005145957547985019, 0.013377340953066719, -0.03293090529956264, 0.0761510398554774, -0.16362291773256007, 0.3215854164543175};
static constexpr double ks_erfcx3[24] = {-4.790854807999966e-16, 2.530937620322843e-15, -1.03296476069403e-14, 5.281869800297876e-14, -2.7392841430636563e-13, 1.3643033588165268e-12, -6.685060361775581e-12, 3.2314480176802486e-11, -1.5377579382966578e-10, 7.198597222315457e-10, -3.3128919638723895e-09, 1.4977684839700926e-08, -6.646685456532041e-08, 2.8926667601876184e-07, -1.233367727561235e-06, 5.146436562019569e-06, -2.0989464460185537e-05, 8.35541396287413e-05, -0.00032412554449686326, 0.0012230390523768054, -0.004479431018372575, 0.015884371159871336, -0.05437226000717287, 0.17900115118138996};
static constexpr double ks_erfcxW4[18] = {-1.1172645155671827e+10, 1.4266249738501973e+09, -1.6084755470155087e+08, 2.2312727894156843e+07, -3.252638569314122e+06, 491016.4221976093, -77929.23825782233, 13088.899703010413, -2343.399697760412, 451.42949510867106, -94.69442698421139, 21.972204371527578, -5.761704397774955, 1.7608315395824203, -0.6575783773389359, 0.32551774975812653, -0.2531516745214896, 0.5537602328010941};
static constexpr double ks_erfcxW8[16] = {-1.7153301102159285e+10, 1.3792030723490987e+09, -1.2271568789656648e+08, 1.2008384976692766e+07, -1.2586525366879804e+06, 142514.68760674342, -17591.86708533935, 2393.1970519188944, -363.7369334499992, 62.86355839022778, -12.649685545460397, 3.063983864678758, -0.9394283464341727, 0.39686004741027675, -0.27489231101436223, 0.5617422245641448};

// erfcx's asymptotic series (-1)^k (2k-1)!!/2^k w^k, w = 1/x^2, highest first
static constexpr double ks_erfcxAsym[9] = {7918.06640625, -1055.7421875, 162.421875, -29.53125, 6.5625, -1.875, 0.75, -0.5, 1};

template <int N> KS_IN double ks_horner(const double (&c)[N], double v) {
  KS_EXACT
  double p = c[0];
#pragma unroll
  for (int i = 1; i < N; i++) p = __builtin_fma(p, v, c[i]);
  return p;
}
// (ch + cl) - (h + l) as a double-double; |ch| >= |h|.
KS_IN double ks_dd_sub_from(double ch, double cl, double h, double l, double *lo) {
  KS_EXACT
  double s = ch - h;
  double e = (ch - s) - h;
  double l2 = (e + cl) - l;
  double h2 = s + l2;
  *lo = l2 - (h2 - s);
  return h2;
}
// atan(r + rl) for 0 <= r <= 1: atan(c) + atan((r - c)/(1 + r c)), c = k/8 nearest r.
KS_IN double ks_atan_dd(double r, double rl, double *lo) {
  KS_EXACT
  int k = (int)__nvvm_round_d(r * 8.0);
  double c = (double)k * 0.125;
  double t = r, tl = rl;
  if (k != 0) {
    double n = r - c;  // exact
    double d = __builtin_fma(r, c, 1.0);
    double de = __builtin_fma(r, c, 1.0 - d) + rl * c;
    t = n / d;
    tl = ((__builtin_fma(-t, d, n) + rl) - t * de) / d;
  }
  double z = t * t;
  double tail = (t * z) * ks_horner(ks_atanP, z);
  double low = (ks_atan_lo[k] + tl) + tail;
  double s = ks_atan_hi[k] + t;
  double e = (ks_atan_hi[k] - s) + t;
  double l = e + low;
  double h = s + l;
  *lo = l - (h - s);
  return h;
}
KS_IN double ks_atan(double x) {
  KS_EXACT
  if (x != x) return x + x;
  double a = __builtin_fabs(x), h, l;
  if (a <= 1.0) {
    h = ks_atan_dd(a, 0.0, &l);
  } else if (a == __builtin_inf()) {
    h = KS_PIO2_HI;
  } else {
    double r = 1.0 / a;
    double rl = __builtin_fma(-r, a, 1.0) / a;
    double hh = ks_atan_dd(r, rl, &l);
    h = ks_dd_sub_from(KS_PIO2_HI, KS_PIO2_LO, hh, l, &l);
  }
  return __builtin_copysign(h, x);
}
KS_IN double ks_atan2(double y, double x) {
  KS_EXACT
  if (x != x || y != y) return x + y;
  double ax = __builtin_fabs(x), ay = __builtin_fabs(y), v;
  if (ay == 0.0) {
    v = __builtin_signbit(x) ? KS_PI_HI : 0.0;
  } else if (ax == 0.0) {
    v = KS_PIO2_HI;
  } else if (ax == __builtin_inf()) {
    if (ay == __builtin_inf()) v = x > 0.0 ? 0.7853981633974483 : 2.356194490192345;
    else v = x > 0.0 ? 0.0 : KS_PI_HI;
  } else if (ay == __builtin_inf()) {
    v = KS_PIO2_HI;
  } else {
    double mn = ax < ay ? ax : ay, mx = ax < ay ? ay : ax;
    if (mx < 0x1p-900) {
      mn = mn * 0x1p600;
      mx = mx * 0x1p600;
    }
    double r = mn / mx;
    double rl = __builtin_fma(-r, mx, mn) / mx;
    double l, h = ks_atan_dd(r, rl, &l);
    if (ay > ax) h = ks_dd_sub_from(KS_PIO2_HI, KS_PIO2_LO, h, l, &l);
    if (x < 0.0) h = ks_dd_sub_from(KS_PI_HI, KS_PI_LO, h, l, &l);
    v = h;
  }
  return __builtin_copysign(v, y);
}
// sqrt(1 - a*a) as a double-double for 0 <= a <= 1.
KS_IN double ks_sqrt1m(double a, double *lo) {
  KS_EXACT
  double a2h = a * a;
  double a2l = __builtin_fma(a, a, -a2h);
  double wh = 1.0 - a2h;
  double wl = ((1.0 - wh) - a2h) - a2l;
  if (wh == 0.0) {
    *lo = 0.0;
    return 0.0;
  }
  double sh = __nvvm_sqrt_rn_d(wh);
  *lo = (__builtin_fma(-sh, sh, wh) + wl) / (2.0 * sh);
  return sh;
}
KS_IN double ks_asin(double x) {
  KS_EXACT
  double a = __builtin_fabs(x);
  if (x != x) return x + x;
  if (a > 1.0) return __builtin_nan("");
  double sl, sh = ks_sqrt1m(a, &sl), h, l;
  if (a <= sh) {
    double q = a / sh;
    double ql = (__builtin_fma(-q, sh, a) - q * sl) / sh;
    h = ks_atan_dd(q, ql, &l);
  } else {
    double q = sh / a;
    double ql = (__builtin_fma(-q, a, sh) + sl) / a;
    double hh = ks_atan_dd(q, ql, &l);
    h = ks_dd_sub_from(KS_PIO2_HI, KS_PIO2_LO, hh, l, &l);
  }
  return __builtin_copysign(h, x);
}
KS_IN double ks_acos(double x) {
  KS_EXACT
  double a = __builtin_fabs(x);
  if (x != x) return x + x;
  if (a > 1.0) return __builtin_nan("");
  double sl, sh = ks_sqrt1m(a, &sl), h, l;
  if (sh <= a) {
    double q = sh / a;
    double ql = (__builtin_fma(-q, a, sh) + sl) / a;
    h = ks_atan_dd(q, ql, &l);
  } else {
    double q = a / sh;
    double ql = (__builtin_fma(-q, sh, a) - q * sl) / sh;
    double hh = ks_atan_dd(q, ql, &l);
    h = ks_dd_sub_from(KS_PIO2_HI, KS_PIO2_LO, hh, l, &l);
  }
  if (x < 0.0) h = ks_dd_sub_from(KS_PI_HI, KS_PI_LO, h, l, &l);
  return h;
}
// cbrt|x| = (y + *yl) * 2^*s for finite nonzero x: Newton's method on m in [1, 8),
// then one correction from the residual m - y^3 carried as a double-double.
KS_IN double ks_cbrt_dd(double x, double *yl, int *s) {
  KS_EXACT
  double a = __builtin_fabs(x);
  int k = 0;
  if (__builtin_bit_cast(unsigned long long, a) < 0x0010000000000000ull) {
    a = a * 18014398509481984.0;  // 2^54
    k = -18;
  }
  unsigned long long b = __builtin_bit_cast(unsigned long long, a);
  int e = (int)(b >> 52) - 1023;
  int q = (e + 1200) / 3 - 400;
  int rem = e - 3 * q;
  double m = __builtin_bit_cast(double, (b & 0x000fffffffffffffull) | ((unsigned long long)(rem + 1023) << 52));
  double y = 1.0 + (m - 1.0) * 0.14285714285714285;
  for (int i = 0; i < 5; i++) y = ((2.0 * y) + m / (y * y)) * 0.3333333333333333;
  double y2h = y * y;
  double y2l = __builtin_fma(y, y, -y2h);
  double y3h = y2h * y;
  double y3l = __builtin_fma(y2h, y, -y3h) + y2l * y;
  double r = (m - y3h) - y3l;
  *yl = r / (3.0 * y2h);
  *s = q + k;
  return y;
}
KS_IN double ks_cbrt(double x) {
  KS_EXACT
  if (x == 0.0 || x != x || __builtin_fabs(x) == __builtin_inf()) return x + x;
  double yl;
  int s;
  double y = ks_cbrt_dd(x, &yl, &s);
  return __builtin_copysign(ks_scale(y + yl, s), x);
}
KS_IN double ks_rcbrt(double x) {
  KS_EXACT
  if (x != x) return x + x;
  if (x == 0.0) return __builtin_copysign(__builtin_inf(), x);
  if (__builtin_fabs(x) == __builtin_inf()) return __builtin_copysign(0.0, x);
  double yl;
  int s;
  double y = ks_cbrt_dd(x, &yl, &s);
  double h = y + yl;
  double hl = yl - (h - y);
  double inv = 1.0 / h;
  double invl = (__builtin_fma(-inv, h, 1.0) - inv * hl) / h;
  return __builtin_copysign(ks_scale(inv + invl, -s), x);
}
// sum of v[i]^2 = (s + *sl) * 4^*e, e the exponent of the largest |v[i]|; returns 1
// in *done with the norm in *sp for infinities, NaNs and all zeros.
KS_IN double ks_sum_squares(const double *v, int n, double *sl, int *e, int *done, double *sp) {
  KS_EXACT
  double m = 0.0;
  int nan = 0;
  *done = 1;
  for (int i = 0; i < n; i++) {
    double a = __builtin_fabs(v[i]);
    if (a == __builtin_inf()) {
      *sp = __builtin_inf();
      return 0.0;
    }
    if (a != a) nan = 1;
    m = __nvvm_fmax_d(m, a);
  }
  if (nan) {
    *sp = __builtin_nan("");
    return 0.0;
  }
  if (m == 0.0) {
    *sp = 0.0;
    return 0.0;
  }
  *done = 0;
  unsigned long long b = __builtin_bit_cast(unsigned long long, m);
  int ex = (int)(b >> 52) - 1023;
  if (b < 0x0010000000000000ull) ex = (int)(__builtin_bit_cast(unsigned long long, m * 18014398509481984.0) >> 52) - 1023 - 54;
  double s = 0.0, l = 0.0;
  for (int i = 0; i < n; i++) {
    double w = ks_scale(__builtin_fabs(v[i]), -ex);
    double p = w * w;
    double pl = __builtin_fma(w, w, -p);
    double s2 = s + p;
    double bb = s2 - s;
    double err = (s - (s2 - bb)) + (p - bb);
    l = l + (err + pl);
    s = s2;
  }
  *sl = l;
  *e = ex;
  return s;
}
KS_IN double ks_norm(const double *v, int n) {
  KS_EXACT
  double sl, sp;
  int e, done;
  double s = ks_sum_squares(v, n, &sl, &e, &done, &sp);
  if (done) return sp;
  double h = __nvvm_sqrt_rn_d(s);
  double hl = (__builtin_fma(-h, h, s) + sl) / (2.0 * h);
  return ks_scale(h + hl, e);
}
KS_IN double ks_rnorm(const double *v, int n) {
  KS_EXACT
  double sl, sp;
  int e, done;
  double s = ks_sum_squares(v, n, &sl, &e, &done, &sp);
  if (done) return 1.0 / sp;
  double y = 1.0 / __nvvm_sqrt_rn_d(s);
  double y2h = y * y;
  double y2l = __builtin_fma(y, y, -y2h);
  double mh = s * y2h;
  double ml = (__builtin_fma(s, y2h, -mh) + s * y2l) + sl * y2h;
  double d = (1.0 - mh) - ml;
  y = __builtin_fma(y * 0.5, d, y);
  return ks_scale(y, -e);
}
// sin(pi x) and cos(pi x): x = n/2 + r exactly, |r| <= 1/4, pi*r as a double-double.
KS_IN void ks_sincospi(double x, double *so, double *co) {
  KS_EXACT
  if (x != x || __builtin_fabs(x) == __builtin_inf()) {
    *so = x - x;
    *co = x - x;
    return;
  }
  double a = __builtin_fabs(x);
  if (a >= 0x1p53) {
    *so = __builtin_copysign(0.0, x);
    *co = 1.0;
    return;
  }
  double n = __nvvm_round_d(a * 2.0);
  double r = a - n * 0.5;
  int ni = (int)(long long)n & 3;
  double ph = r * KS_PI_HI;
  double pl = __builtin_fma(r, KS_PI_HI, -ph) + r * KS_PI_LO;
  double sp = __builtin_fma(pl, __builtin_fma(-0.5 * ph, ph, 1.0), ks_sin_kernel(ph));
  double cp = __builtin_fma(-pl, ph, ks_cos_kernel(ph));
  double s, c;
  if (ni == 0) { s = sp; c = cp; }
  else if (ni == 1) { s = cp; c = -sp; }
  else if (ni == 2) { s = -sp; c = -cp; }
  else { s = -cp; c = sp; }
  if (s == 0.0) s = 0.0;
  if (c == 0.0) c = 0.0;
  if (x < 0.0) s = -s;
  *so = s;
  *co = c;
}
// m * e^(h + l), rounded once after the polynomial.
KS_IN double ks_exp_mul_dd(double h, double l, double m) {
  KS_EXACT
  if (h != h) return h;
  if (h > 709.782712893384) return __builtin_inf();
  if (h < -745.1332191019412) return 0.0;
  double j = __nvvm_round_d(h * 1.4426950408889634);
  double r = __builtin_fma(j, -0.6931471805599453, h);
  r = r + l;
  r = __builtin_fma(j, -2.3190468138462996e-17, r);
  return ks_scale(__builtin_fma(m, ks_expm1_kernel(r), m), (int)j);
}
// erf x for |x| < 1: x * P(x^2), the constant term 2/sqrt(pi) as a double-double.
KS_IN double ks_erf_small(double x) {
  KS_EXACT
  double z = x * x;
  double p = ks_erfP[0];
#pragma unroll
  for (int i = 1; i < 15; i++) p = __builtin_fma(p, z, ks_erfP[i]);
  double tail = z * p;
  return __builtin_fma(x, KS_2SQRTPI_HI, x * (KS_2SQRTPI_LO + tail));
}
// e^(x^2) erfc x for x >= 0, piecewise polynomials (in 1/x^2 from 4 on).
KS_IN double ks_erfcx_pos(double x) {
  KS_EXACT
  if (x < 0.5) return (1.0 - ks_erf_small(x)) * ks_exp(x * x);
  if (x < 1.0) return ks_horner(ks_erfcx1, x - 0.75);
  if (x < 2.0) return ks_horner(ks_erfcx2, x - 1.5);
  if (x < 4.0) return ks_horner(ks_erfcx3, x - 3.0);
  if (x < 8.0) {
    double w = 1.0 / (x * x);
    return ks_horner(ks_erfcxW4, w - 0.0390625) / x;
  }
  if (x < 28.0) {
    double w = 1.0 / (x * x);
    return ks_horner(ks_erfcxW8, w - 0.0087890625) / x;
  }
  double w = (1.0 / x) / x;
  return (KS_RSQRTPI * ks_horner(ks_erfcxAsym, w)) / x;
}
KS_IN double ks_erfc_pos(double x) {  // x >= 0.5
  KS_EXACT
  if (x >= 28.0) return 0.0;
  double sq = x * x;
  double sql = __builtin_fma(x, x, -sq);
  return ks_exp_mul_dd(-sq, -sql, ks_erfcx_pos(x));
}
KS_IN double ks_erf(double x) {
  KS_EXACT
  if (x != x) return x + x;
  double a = __builtin_fabs(x);
  if (a < 1.0) return ks_erf_small(x);
  if (a < 6.0) return __builtin_copysign(1.0 - ks_erfc_pos(a), x);
  return __builtin_copysign(1.0, x);
}
KS_IN double ks_erfc(double x) {
  KS_EXACT
  if (x != x) return x + x;
  if (x >= 0.5) return ks_erfc_pos(x);
  if (x > -0.5) return 1.0 - ks_erf_small(x);
  if (x > -6.0) return 2.0 - ks_erfc_pos(-x);
  return 2.0;
}
KS_IN double ks_erfcx(double x) {
  KS_EXACT
  if (x != x) return x + x;
  if (x >= 0.0) return ks_erfcx_pos(x);
  if (x > -0.5) return (1.0 - ks_erf_small(x)) * ks_exp(x * x);
  if (x < -26.7) return __builtin_inf();
  double a = -x;
  double sq = a * a;
  double sql = __builtin_fma(a, a, -sq);
  return ks_exp_mul_dd(sq, sql, 2.0) - ks_erfcx_pos(a);
}
// erf x = a for 0 <= a <= 0.5 by Newton's method.
KS_IN double ks_erfinv_small(double a) {
  KS_EXACT
  double x = (a * KS_SQRTPI_2) * (1.0 + (a * a) * 0.2617993877991494);
  for (int i = 0; i < 5; i++) {
    double d = ks_erf_small(x) - a;
    x = x - d * (KS_SQRTPI_2 * ks_exp(x * x));
  }
  return x;
}
// erfc x = z for 0 < z <= 0.5: Newton's method on log erfc x = -x^2 + log erfcx x.
KS_IN double ks_erfcinv_small(double z) {
  KS_EXACT
  double ll, lh = ks_log_dd(z, &ll);
  double L = -lh;
  double sl = __nvvm_sqrt_rn_d(L);
  double x = __nvvm_sqrt_rn_d(L - ks_log(sl * 1.772453850905516));
  for (int i = 0; i < 5; i++) {
    double sq = x * x;
    double sql = __builtin_fma(x, x, -sq);
    double E = ks_erfcx_pos(x);
    double f = (((-sq - lh) - sql) - ll) + ks_log(E);
    x = x + f * (KS_SQRTPI_2 * E);
  }
  return x;
}
KS_IN double ks_erfinv(double y) {
  KS_EXACT
  double a = __builtin_fabs(y);
  if (y != y) return y + y;
  if (a > 1.0) return __builtin_nan("");
  if (a == 1.0) return __builtin_copysign(__builtin_inf(), y);
  if (a == 0.0) return y;
  if (a <= 0.5) return __builtin_copysign(ks_erfinv_small(a), y);
  return __builtin_copysign(ks_erfcinv_small(1.0 - a), y);
}
KS_IN double ks_erfcinv(double z) {
  KS_EXACT
  if (z != z) return z + z;
  if (z < 0.0 || z > 2.0) return __builtin_nan("");
  if (z == 0.0) return __builtin_inf();
  if (z == 2.0) return -__builtin_inf();
  if (z > 1.0) {
    double w = 2.0 - z;
    if (w > 0.5) return -ks_erfinv_small(1.0 - w);
    return -ks_erfcinv_small(w);
  }
  if (z >= 0.5) {
    if (z == 1.0) return 0.0;
    return ks_erfinv_small(1.0 - z);
  }
  return ks_erfcinv_small(z);
}
// normcdf x = erfc(u)/2, u = -x/sqrt(2) carried as a double-double.
KS_IN double ks_normcdf(double x) {
  KS_EXACT
  if (x != x) return x + x;
  double uh = x * -KS_RSQRT2_HI;
  double ul = __builtin_fma(x, -KS_RSQRT2_HI, -uh) + x * -KS_RSQRT2_LO;
  if (uh >= 28.0) return 0.0;
  if (uh >= 0.5) {
    double E = ks_erfcx_pos(uh);
    double Ec = __builtin_fma(ul, ((2.0 * uh) * E) - KS_2SQRTPI_HI, E);
    double sq = uh * uh;
    double sql = __builtin_fma(uh, uh, -sq) + (2.0 * uh) * ul;
    return ks_exp_mul_dd(-sq, -sql, 0.5 * Ec);
  }
  if (uh > -0.5) return 0.5 - 0.5 * ks_erf_small(uh);
  if (uh > -6.0) return 1.0 - 0.5 * ks_erfc_pos(-uh);
  return 1.0;
}
KS_IN double ks_normcdfinv(double p) {
  KS_EXACT
  if (p != p) return p + p;
  if (p < 0.0 || p > 1.0) return __builtin_nan("");
  if (p == 0.0) return -__builtin_inf();
  if (p == 1.0) return __builtin_inf();
  return -KS_SQRT2 * ks_erfcinv(2.0 * p);
}
// ---- end of special functions ----

KS_NV float __nv_atanf(float a) { return ks_nv_atanf(a); }
KS_NV double __nv_atan(double a) { return ks_atan(a); }
KS_NV float __nv_asinf(float a) { return ks_nv_asinf(a); }
KS_NV double __nv_asin(double a) { return ks_asin(a); }
KS_NV float __nv_acosf(float a) { return ks_nv_acosf(a); }
KS_NV double __nv_acos(double a) { return ks_acos(a); }
KS_NV float __nv_cbrtf(float a) { return ks_nv_cbrtf(a); }
KS_NV double __nv_cbrt(double a) { return ks_cbrt(a); }
KS_NV float __nv_rcbrtf(float a) { return ks_nv_rcbrtf(a); }
KS_NV double __nv_rcbrt(double a) { return ks_rcbrt(a); }
KS_NV float __nv_erff(float a) { return ks_nv_erff(a); }
KS_NV double __nv_erf(double a) { return ks_erf(a); }
KS_NV float __nv_erfcf(float a) { return ks_nv_erfcf(a); }
KS_NV double __nv_erfc(double a) { return ks_erfc(a); }
KS_NV float __nv_erfcxf(float a) { return ks_nv_erfcxf(a); }
KS_NV double __nv_erfcx(double a) { return ks_erfcx(a); }
KS_NV float __nv_erfinvf(float a) { return ks_nv_erfinvf(a); }
KS_NV double __nv_erfinv(double a) { return ks_erfinv(a); }
KS_NV float __nv_erfcinvf(float a) { return ks_nv_erfcinvf(a); }
KS_NV double __nv_erfcinv(double a) { return ks_erfcinv(a); }
KS_NV float __nv_normcdff(float a) { return ks_nv_normcdff(a); }
KS_NV double __nv_normcdf(double a) { return ks_normcdf(a); }
KS_NV float __nv_normcdfinvf(float a) { return ks_nv_normcdfinvf(a); }
KS_NV double __nv_normcdfinv(double a) { return ks_normcdfinv(a); }
KS_NV float __nv_atan2f(float y, float x) { return ks_nv_atan2f(y, x); }
KS_NV double __nv_atan2(double y, double x) { return ks_atan2(y, x); }
KS_NV double __nv_sinpi(double a) { double s, c; ks_sincospi(a, &s, &c); return s; }
KS_NV double __nv_cospi(double a) { double s, c; ks_sincospi(a, &s, &c); return c; }
KS_NV void __nv_sincospi(double a, double *s, double *c) { ks_sincospi(a, s, c); }
KS_NV float __nv_sinpif(float a) { return ks_nv_sinpif(a); }
KS_NV float __nv_cospif(float a) { return ks_nv_cospif(a); }
KS_NV void __nv_sincospif(float a, float *s, float *c) {
  *s = ks_nv_sinpif(a);
  *c = ks_nv_cospif(a);
}
KS_NV double __nv_hypot(double a, double b) { double v[2] = {a, b}; return ks_norm(v, 2); }
KS_NV double __nv_rhypot(double a, double b) { double v[2] = {a, b}; return ks_rnorm(v, 2); }
KS_NV double __nv_norm3d(double a, double b, double c) { double v[3] = {a, b, c}; return ks_norm(v, 3); }
KS_NV double __nv_rnorm3d(double a, double b, double c) { double v[3] = {a, b, c}; return ks_rnorm(v, 3); }
KS_NV double __nv_norm4d(double a, double b, double c, double d) { double v[4] = {a, b, c, d}; return ks_norm(v, 4); }
KS_NV double __nv_rnorm4d(double a, double b, double c, double d) { double v[4] = {a, b, c, d}; return ks_rnorm(v, 4); }
KS_NV float __nv_rhypotf(float a, float b) { return ks_nv_rhypotf(a, b); }
KS_NV float __nv_norm3df(float a, float b, float c) { return ks_nv_norm3df(a, b, c); }
KS_NV float __nv_rnorm3df(float a, float b, float c) { return ks_nv_rnorm3df(a, b, c); }
KS_NV float __nv_norm4df(float a, float b, float c, float d) { double v[4] = {a, b, c, d}; return (float)ks_norm(v, 4); }
KS_NV float __nv_rnorm4df(float a, float b, float c, float d) { double v[4] = {a, b, c, d}; return (float)ks_rnorm(v, 4); }
KS_NV double __nv_norm(int n, const double *v) { return ks_norm(v, n); }
KS_NV double __nv_rnorm(int n, const double *v) { return ks_rnorm(v, n); }
KS_NV float __nv_normf(int n, const float *v) {
  KS_EXACT
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    if (__builtin_fabsf(v[i]) == __builtin_inff()) return __builtin_inff();
    s = __builtin_fma((double)v[i], (double)v[i], s);
  }
  return (float)__nvvm_sqrt_rn_d(s);
}
KS_NV float __nv_rnormf(int n, const float *v) {
  KS_EXACT
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    if (__builtin_fabsf(v[i]) == __builtin_inff()) return 0.0f;
    s = __builtin_fma((double)v[i], (double)v[i], s);
  }
  return (float)(1.0 / __nvvm_sqrt_rn_d(s));
}

#undef KS_NV
#undef KS_IN
#undef KS_EXACT
#endif // KERNELSCOPE_LIBDEVICE_H
