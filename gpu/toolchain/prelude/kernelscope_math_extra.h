// KernelScope: the CUDA Math API functions kernelscope_libdevice.h lacks, written for
// KernelScope from the functions' mathematical definitions (series, recurrences,
// asymptotic expansions and the usual identities); none of CUDA's code. The float
// functions are computed in double and rounded once, so their error is a fraction of an
// ulp plus the double algorithm's; they are not bit-identical to CUDA's, which computes
// in float. Accuracy measured against references and against the H200 is in
// docs/realcuda-math.md (gpu/toolchain/mathsweep_test.go). Included by the prelude after
// kernelscope_libdevice.h.
//
//   double: log1p expm1 sinh cosh tan exp10 asinh acosh atanh lgamma tgamma
//           j0 j1 y0 y1 jn yn cyl_bessel_i0 cyl_bessel_i1 (double-double series) nan
//   float:  lgammaf tgammaf j0f j1f y0f y1f jnf ynf asinhf acoshf atanhf
//           cyl_bessel_i0f cyl_bessel_i1f nanf
#pragma clang system_header
#ifndef KERNELSCOPE_MATH_EXTRA_H
#define KERNELSCOPE_MATH_EXTRA_H

#define KS_NV extern "C" __device__ inline __attribute__((always_inline))
#define KS_IN static __device__ __forceinline__
// Contraction off inside each function (at the start of its body, so the cell keeps its own).
#define KS_MX_EXACT _Pragma("clang fp contract(off)")

#define KS_MX_PI 3.141592653589793116
#define KS_MX_LN2 6.93147180559945286227e-01
#define KS_MX_EULER 5.77215664901532860607e-01
#define KS_MX_LNSQRT2PI 9.18938533204672669541e-01

// ---- double: log1p, expm1 and what is built on them ----

// log1p(x) = log(u) * x / (u - 1) with u = 1 + x (the quotient cancels u's rounding).
KS_NV double __nv_log1p(double x) {
  KS_MX_EXACT
  if (!(x == x) || x == __builtin_inf()) return x + x;
  double u = 1.0 + x;
  if (u == 1.0) return x;
  if (u == 0.0) return -__builtin_inf();
  return __nv_log(u) * (x / (u - 1.0));
}

// expm1(x) = (u - 1) * x / log(u) with u = exp(x) (Kahan), u - 1 for large |x|.
KS_NV double __nv_expm1(double x) {
  KS_MX_EXACT
  if (!(x == x)) return x + x;
  if (__builtin_fabs(x) < 0x1p-54) return x;
  if (x > 40.0) return __nv_exp(x);
  if (x < -40.0) return -1.0;
  double u = __nv_exp(x);
  if (u == 1.0) return x;
  double um1 = u - 1.0;
  if (um1 == -1.0) return -1.0;
  return um1 * (x / __nv_log(u));
}

KS_NV double __nv_sinh(double x) {
  KS_MX_EXACT
  double a = __builtin_fabs(x), r;
  if (!(a == a)) return x + x;
  if (a < 0x1p-28) return x;
  if (a > 22.0) {
    double t = __nv_exp(0.5 * a);
    r = (0.5 * t) * t;
  } else {
    double t = __nv_expm1(a);
    r = 0.5 * (t + t / (t + 1.0));
  }
  return __builtin_copysign(r, x);
}

KS_NV double __nv_cosh(double x) {
  KS_MX_EXACT
  double a = __builtin_fabs(x);
  if (!(a == a)) return x + x;
  if (a > 22.0) {
    double t = __nv_exp(0.5 * a);
    return (0.5 * t) * t;
  }
  if (a < 0x1p-27) return 1.0;
  double t = __nv_exp(a);
  return 0.5 * t + 0.5 / t;
}

KS_NV double __nv_tan(double x) {
  KS_MX_EXACT
  double s, c;
  __nv_sincos(x, &s, &c);
  return s / c;
}

KS_NV double __nv_exp10(double x) { return __nv_pow(10.0, x); }

KS_NV double __nv_asinh(double x) {
  KS_MX_EXACT
  double a = __builtin_fabs(x), r;
  if (!(a == a) || a == __builtin_inf()) return x + x;
  if (a < 0x1p-28) return x;
  if (a > 0x1p28) {
    r = __nv_log(a) + KS_MX_LN2;
  } else if (a > 2.0) {
    r = __nv_log(2.0 * a + 1.0 / (__nv_sqrt(a * a + 1.0) + a));
  } else {
    double t = a * a;
    r = __nv_log1p(a + t / (1.0 + __nv_sqrt(1.0 + t)));
  }
  return __builtin_copysign(r, x);
}

KS_NV double __nv_acosh(double x) {
  KS_MX_EXACT
  if (!(x >= 1.0)) return (x - x) / (x - x); // NaN for x < 1 and NaN
  if (x == __builtin_inf()) return x;
  if (x > 0x1p28) return __nv_log(x) + KS_MX_LN2;
  if (x > 2.0) return __nv_log(2.0 * x - 1.0 / (x + __nv_sqrt(x * x - 1.0)));
  double t = x - 1.0;
  return __nv_log1p(t + __nv_sqrt(2.0 * t + t * t));
}

KS_NV double __nv_atanh(double x) {
  KS_MX_EXACT
  double a = __builtin_fabs(x), r;
  if (!(a == a)) return x + x;
  if (a > 1.0) return (x - x) / (x - x);
  if (a < 0x1p-28) return x;
  if (a < 0.5) {
    double t = a + a;
    r = 0.5 * __nv_log1p(t + t * a / (1.0 - a));
  } else {
    r = 0.5 * __nv_log1p((a + a) / (1.0 - a));
  }
  return __builtin_copysign(r, x);
}

// ---- double: lgamma and tgamma ----

// log Gamma(1 + z) for |z| <= 0.5: -log1p(z) + (1 - Euler) z + sum_k (-1)^k (zeta(k) - 1) z^k / k.
KS_IN double ks_mx_lgamma1p(double z) {
  KS_MX_EXACT
  const double c[30] = {
      3.22467033424113203e-01,  -6.73523010531981020e-02, 2.05808084277845464e-02,  -7.38555102867398568e-03,
      2.89051033074152336e-03,  -1.19275391170326102e-03, 5.09669524743042450e-04,  -2.23154758453579386e-04,
      9.94575127818085310e-05,  -4.49262367381331420e-05, 2.05072127756706911e-05,  -9.43948827526839672e-06,
      4.37486678990748817e-06,  -2.03921575380136619e-06, 9.55141213040741935e-07,  -4.49246919876456619e-07,
      2.12071848055546646e-07,  -1.00432248239680991e-07, 4.76981016936398040e-08,  -2.27110946089431635e-08,
      1.08386592148969546e-08,  -5.18347504197004664e-09, 2.48367454380247848e-09,  -1.19214014058609115e-09,
      5.73136724167886225e-10,  -2.75952288512423336e-10, 1.33047643742444888e-10,  -6.42296456383809960e-11,
      3.10442477473222756e-11,  -1.50213840807541417e-11};
  double p = c[29];
  for (int k = 28; k >= 0; k--) p = __builtin_fma(p, z, c[k]);
  // p * z^2 is the sum from k = 2
  return __builtin_fma(p * z, z, (1.0 - KS_MX_EULER) * z) - __nv_log1p(z);
}

// The Stirling series' correction sum_k B_2k / (2k (2k-1) x^(2k-1)) for x >= 8.
KS_IN double ks_mx_stirling(double x) {
  KS_MX_EXACT
  double r = 1.0 / x, r2 = r * r;
  // B2/(2*1) = 1/12, B4/(4*3) = -1/360, B6/(6*5) = 1/1260, B8/(8*7) = -1/1680,
  // B10/(10*9) = 1/1188, B12/(12*11) = -691/360360, B14/(14*13) = 1/156, B16/(16*15) = -3617/122400.
  double q = -3617.0 / 122400.0;
  q = __builtin_fma(q, r2, 1.0 / 156.0);
  q = __builtin_fma(q, r2, -691.0 / 360360.0);
  q = __builtin_fma(q, r2, 1.0 / 1188.0);
  q = __builtin_fma(q, r2, -1.0 / 1680.0);
  q = __builtin_fma(q, r2, 1.0 / 1260.0);
  q = __builtin_fma(q, r2, -1.0 / 360.0);
  q = __builtin_fma(q, r2, 1.0 / 12.0);
  return q * r;
}

// log|Gamma(x)| for x >= 0.5.
KS_IN double ks_mx_lgamma_pos(double x) {
  KS_MX_EXACT
  if (x <= 1.5) return ks_mx_lgamma1p(x - 1.0);
  if (x <= 2.5) {
    double z = x - 2.0;
    return __nv_log1p(z) + ks_mx_lgamma1p(z);
  }
  if (x < 8.0) {
    double prod = 1.0, y = x;
    while (y > 2.5) {
      y -= 1.0;
      prod *= y;
    }
    double z = y - 2.0;
    return __nv_log(prod) + (__nv_log1p(z) + ks_mx_lgamma1p(z));
  }
  if (x > 0x1p1000) return x * (__nv_log(x) - 1.0);
  return (x - 0.5) * __nv_log(x) - x + (KS_MX_LNSQRT2PI + ks_mx_stirling(x));
}

KS_NV double __nv_lgamma(double x) {
  KS_MX_EXACT
  if (!(x == x)) return x + x;
  if (__builtin_isinf(x)) return __builtin_inf();
  if (x >= 0.5) return ks_mx_lgamma_pos(x);
  if (x == __builtin_floor(x)) return __builtin_inf(); // 0 and the negative integers
  // Reflection: log|Gamma(x)| = log(pi / |sin(pi x)|) - log|Gamma(1 - x)|.
  double s = __builtin_fabs(__nv_sinpi(x));
  if (__builtin_fabs(x) < 0x1p-60) return -__nv_log(__builtin_fabs(x));
  return __nv_log(KS_MX_PI / s) - ks_mx_lgamma_pos(1.0 - x);
}

// Gamma(x) for x >= 0.5.
KS_IN double ks_mx_tgamma_pos(double x) {
  KS_MX_EXACT
  if (x > 171.7) return __builtin_inf();
  if (x >= 8.0) {
    // sqrt(2 pi) x^(x - 1/2) e^-x e^stirling, x^(x - 1/2) split in two so it does not overflow.
    double p = __nv_pow(x, 0.5 * (x - 0.5));
    return (2.50662827463100050242 * p) * (p * __nv_exp(-x)) * __nv_exp(ks_mx_stirling(x));
  }
  double prod = 1.0, y = x;
  while (y > 1.5) {
    y -= 1.0;
    prod *= y;
  }
  // y in [0.5, 1.5]: Gamma(y) = exp(lgamma(1 + (y - 1))).
  return prod * __nv_exp(ks_mx_lgamma1p(y - 1.0));
}

KS_NV double __nv_tgamma(double x) {
  KS_MX_EXACT
  if (!(x == x)) return x + x;
  if (x == __builtin_inf()) return x;
  if (x == 0.0) return __builtin_copysign(__builtin_inf(), x);
  if (x >= 0.5) return ks_mx_tgamma_pos(x);
  if (x == __builtin_floor(x)) return (x - x) / (x - x); // negative integers and -inf: NaN
  if (x < -190.0) return __builtin_copysign(0.0, __nv_sinpi(x));
  // Reflection: Gamma(x) = pi / (sin(pi x) Gamma(1 - x)).
  double g = ks_mx_tgamma_pos(1.0 - x);
  double s = __nv_sinpi(x);
  if (g == __builtin_inf()) return __builtin_copysign(0.0, s);
  return KS_MX_PI / (s * g);
}

KS_NV float __nv_lgammaf(float x) { return ks_nv_lgammaf(x); }  // nvcc's sequence (kernelscope_nvmathf.h)
KS_NV float __nv_tgammaf(float x) { return ks_nv_tgammaf(x); }  // nvcc's sequence (kernelscope_nvmathf.h)
// asinhf, acoshf, atanhf: nvcc's sequences (kernelscope_nvmathf.h).
KS_NV float __nv_asinhf(float x) { return ks_nv_asinhf(x); }
KS_NV float __nv_acoshf(float x) { return ks_nv_acoshf(x); }
KS_NV float __nv_atanhf(float x) { return ks_nv_atanhf(x); }

// ---- Bessel functions (float, computed in double) ----

// The power series of J_n(x), n >= 0: sum_k (-1)^k (x/2)^(2k+n) / (k! (n+k)!).
KS_IN double ks_mx_jn_series(int n, double x) {
  KS_MX_EXACT
  double h = 0.5 * x, q = -h * h, t = 1.0;
  for (int k = 1; k <= n; k++) t *= h / k;
  double s = t;
  for (int k = 1; k < 200; k++) {
    t *= q / ((double)k * (double)(n + k));
    s += t;
    if (__builtin_fabs(t) < 0x1p-60 * __builtin_fabs(s)) break;
  }
  return s;
}

// Hankel's asymptotic P and Q of order nu (0 or 1) for x >= 12.
KS_IN void ks_mx_hankel(int nu, double x, double *P, double *Q) {
  KS_MX_EXACT
  double mu = 4.0 * nu * nu, a = 1.0, p = 1.0, q = 0.0, z = 1.0 / (8.0 * x), last = 2.0;
  for (int k = 1; k < 40; k++) {
    a *= (mu - (double)(2 * k - 1) * (double)(2 * k - 1)) * z / k;
    if (__builtin_fabs(a) >= last) break; // the asymptotic series' terms start growing
    last = __builtin_fabs(a);
    switch (k & 3) {
    case 1: q += a; break;
    case 2: p -= a; break;
    case 3: q -= a; break;
    default: p += a; break;
    }
    if (last < 0x1p-60) break;
  }
  *P = p;
  *Q = q;
}

// J_nu or Y_nu (nu = 0, 1) for x >= 12: sqrt(2/(pi x)) (P cos(chi) - Q sin(chi)) or
// (P sin(chi) + Q cos(chi)), chi = x - (2 nu + 1) pi / 4.
KS_IN double ks_mx_bessel_big(int nu, int y, double x) {
  KS_MX_EXACT
  double P, Q, s, c;
  ks_mx_hankel(nu, x, &P, &Q);
  __nv_sincos(x, &s, &c);
  const double r = 0.70710678118654752440;
  double cs, sn; // cos(chi), sin(chi)
  if (nu == 0) {
    cs = r * (c + s);
    sn = r * (s - c);
  } else {
    cs = r * (s - c);
    sn = -r * (s + c);
  }
  double amp = __nv_sqrt(2.0 / (KS_MX_PI * x));
  return amp * (y ? (P * sn + Q * cs) : (P * cs - Q * sn));
}

KS_IN double ks_mx_j0(double x) {
  KS_MX_EXACT
  x = __builtin_fabs(x);
  return x < 12.0 ? ks_mx_jn_series(0, x) : ks_mx_bessel_big(0, 0, x);
}
KS_IN double ks_mx_j1(double x) {
  KS_MX_EXACT
  double a = __builtin_fabs(x);
  double r = a < 12.0 ? ks_mx_jn_series(1, a) : ks_mx_bessel_big(1, 0, a);
  return x < 0 ? -r : r;
}

// Y0 for 0 < x < 12: (2/pi) ((log(x/2) + Euler) J0(x) + sum_k (-1)^(k+1) H_k (x^2/4)^k / (k!)^2).
KS_IN double ks_mx_y0(double x) {
  KS_MX_EXACT
  if (x >= 12.0) return ks_mx_bessel_big(0, 1, x);
  double q = 0.25 * x * x, t = 1.0, H = 0.0, s = 0.0;
  for (int k = 1; k < 200; k++) {
    t *= -q / ((double)k * (double)k);
    H += 1.0 / k;
    double term = -t * H;
    s += term;
    if (__builtin_fabs(term) < 0x1p-60 * __builtin_fabs(s)) break;
  }
  return (2.0 / KS_MX_PI) * ((__nv_log(0.5 * x) + KS_MX_EULER) * ks_mx_jn_series(0, x) + s);
}

// Y1 for 0 < x < 12: -2/(pi x) + (2/pi) log(x/2) J1(x)
//   - (1/pi) sum_k (-1)^k (psi(k+1) + psi(k+2)) (x/2)^(2k+1) / (k! (k+1)!).
KS_IN double ks_mx_y1(double x) {
  KS_MX_EXACT
  if (x >= 12.0) return ks_mx_bessel_big(1, 1, x);
  double h = 0.5 * x, q = -h * h, t = h, psi1 = -KS_MX_EULER, psi2 = 1.0 - KS_MX_EULER;
  double s = t * (psi1 + psi2);
  for (int k = 1; k < 200; k++) {
    t *= q / ((double)k * (double)(k + 1));
    psi1 += 1.0 / k;
    psi2 += 1.0 / (k + 1);
    double term = t * (psi1 + psi2);
    s += term;
    if (__builtin_fabs(term) < 0x1p-60 * __builtin_fabs(s)) break;
  }
  return -2.0 / (KS_MX_PI * x) + (2.0 / KS_MX_PI) * __nv_log(h) * ks_mx_jn_series(1, x) - s / KS_MX_PI;
}

// j0f, j1f: nvcc's sequences (kernelscope_nvmathf.h).
KS_NV float __nv_j0f(float x) { return ks_nv_j0f(x); }
KS_NV float __nv_j1f(float x) { return ks_nv_j1f(x); }
KS_NV float __nv_y0f(float x) { return ks_nv_y0f(x); }  // nvcc's sequence (kernelscope_nvmathf.h)
KS_NV float __nv_y1f(float x) { return ks_nv_y1f(x); }  // nvcc's sequence (kernelscope_nvmathf.h)

// J_n: the series for |x| <= n (and small x), forward recurrence from J0 and J1 above.
KS_NV float __nv_jnf(int n, float xf) {
  KS_MX_EXACT
  double x = (double)xf, sign = 1.0;
  if (n < 0) {
    n = -n;
    if (n & 1) sign = -1.0;
  }
  if (n == 0) return __nv_j0f(xf);
  if (!(x == x)) return xf;
  if (__builtin_isinf(x)) return 0.0f;
  if (x < 0) {
    x = -x;
    if (n & 1) sign = -sign;
  }
  if (n == 1) return (float)(sign * ks_mx_j1(x));
  double r;
  if (x <= (double)n || x < 12.0) {
    r = ks_mx_jn_series(n, x);
  } else {
    double a = ks_mx_j0(x), b = ks_mx_j1(x);
    for (int k = 1; k < n; k++) {
      double c = (2.0 * k / x) * b - a;
      a = b;
      b = c;
    }
    r = b;
  }
  return (float)(sign * r);
}

// Y_n: forward recurrence from Y0 and Y1 (stable for Y).
KS_NV float __nv_ynf(int n, float xf) {
  KS_MX_EXACT
  double sign = 1.0;
  if (n < 0) {
    n = -n;
    if (n & 1) sign = -1.0;
  }
  if (n == 0) return __nv_y0f(xf);
  if (!(xf >= 0.0f)) return __builtin_nanf("");
  if (xf == 0.0f) return -__builtin_inff();
  if (__builtin_isinf(xf)) return 0.0f;
  double x = (double)xf, a = ks_mx_y0(x), b = ks_mx_y1(x);
  for (int k = 1; k < n && b > -__builtin_inf(); k++) {
    double c = (2.0 * k / x) * b - a;
    a = b;
    b = c;
  }
  return (float)(sign * b);
}

// I0 and I1: their power series (all terms positive), until the terms no longer count.
KS_IN double ks_mx_in_series(int n, double x) {
  KS_MX_EXACT
  double h = 0.5 * x, q = h * h, t = n ? h : 1.0, s = t;
  for (int k = 1; k < 400; k++) {
    t *= q / ((double)k * (double)(k + n));
    s += t;
    if (t < 0x1p-60 * s) break;
  }
  return s;
}

// cyl_bessel_i0f/i1f: nvcc's sequences (kernelscope_nvmathf.h).
KS_NV float __nv_cyl_bessel_i0f(float x) { return ks_nv_cyl_bessel_i0f(x); }
KS_NV float __nv_cyl_bessel_i1f(float x) { return ks_nv_cyl_bessel_i1f(x); }

// ---- double Bessel functions (double-double series, Hankel's expansion for large x) ----

// A double-double value hi + lo (|lo| <= ulp(hi) / 2), with error-free sums and products.
struct ks_mx_dd {
  double hi, lo;
};
KS_IN ks_mx_dd ks_mx_dd_make(double a) { return ks_mx_dd{a, 0.0}; }
KS_IN ks_mx_dd ks_mx_dd_add(ks_mx_dd a, ks_mx_dd b) {
  KS_MX_EXACT
  double s = a.hi + b.hi, bb = s - a.hi, e = (a.hi - (s - bb)) + (b.hi - bb);
  e += a.lo + b.lo;
  double h = s + e;
  return ks_mx_dd{h, e - (h - s)};
}
KS_IN ks_mx_dd ks_mx_dd_mul(ks_mx_dd a, ks_mx_dd b) {
  KS_MX_EXACT
  double p = a.hi * b.hi, e = __builtin_fma(a.hi, b.hi, -p);
  e = __builtin_fma(a.hi, b.lo, e);
  e = __builtin_fma(a.lo, b.hi, e);
  double h = p + e;
  return ks_mx_dd{h, e - (h - p)};
}
KS_IN ks_mx_dd ks_mx_dd_div_d(ks_mx_dd a, double b) {
  KS_MX_EXACT
  double q = a.hi / b;
  // remainder a - q b exactly (fma), then one correction step
  double r = __builtin_fma(-q, b, a.hi) + a.lo;
  double c = r / b;
  double h = q + c;
  return ks_mx_dd{h, c - (h - q)};
}

// sum_k s^k (x/2)^(2k+n) / (k! (n+k)!) for s = -1 (J_n) or +1 (I_n), in double-double:
// exact enough that the cancellation of J's terms (up to I_0(x) in size) costs nothing
// below x = 25. n >= 0; *lead is the k = 0 term (x/2)^n / n!, for callers that scale.
KS_IN ks_mx_dd ks_mx_dd_bessel_series(int n, double x, double s) {
  KS_MX_EXACT
  ks_mx_dd h = ks_mx_dd_make(0.5 * x), q = ks_mx_dd_mul(h, h), t = ks_mx_dd_make(1.0);
  if (s < 0) q = ks_mx_dd{-q.hi, -q.lo};
  for (int k = 1; k <= n; k++) {
    t = ks_mx_dd_div_d(ks_mx_dd_mul(t, h), (double)k);
    if (t.hi == 0.0) return t; // underflow: (x/2)^n / n! is below the smallest double
  }
  ks_mx_dd sum = t;
  for (int k = 1; k < 600; k++) {
    t = ks_mx_dd_div_d(ks_mx_dd_mul(t, q), (double)k * (double)(n + k));
    sum = ks_mx_dd_add(sum, t);
    if (__builtin_fabs(t.hi) < 0x1p-110 * __builtin_fabs(sum.hi) || t.hi == 0.0) break;
  }
  return sum;
}

// Where the double functions switch from the series to Hankel's expansion: at x = 25 the
// expansion's smallest term is below 2^-120 of its first, and the series' cancellation
// (I_0(25) ~ 6e9 against J's O(0.2)) is still far inside double-double's 106 bits.
#define KS_MX_BIG 25.0

KS_IN double ks_mx_j0d(double x) {
  KS_MX_EXACT
  x = __builtin_fabs(x);
  if (x < KS_MX_BIG) {
    ks_mx_dd r = ks_mx_dd_bessel_series(0, x, -1.0);
    return r.hi + r.lo;
  }
  return ks_mx_bessel_big(0, 0, x);
}
KS_IN double ks_mx_j1d(double x) {
  KS_MX_EXACT
  double a = __builtin_fabs(x), r;
  if (a < KS_MX_BIG) {
    ks_mx_dd v = ks_mx_dd_bessel_series(1, a, -1.0);
    r = v.hi + v.lo;
  } else {
    r = ks_mx_bessel_big(1, 0, a);
  }
  return x < 0 ? -r : r;
}

// Y0 for 0 < x < 25: (2/pi) ((log(x/2) + Euler) J0(x) + sum_k (-1)^(k+1) H_k (x^2/4)^k / (k!)^2),
// the sum in double-double.
KS_IN double ks_mx_y0d(double x) {
  KS_MX_EXACT
  if (x >= KS_MX_BIG) return ks_mx_bessel_big(0, 1, x);
  ks_mx_dd h = ks_mx_dd_make(0.5 * x), q = ks_mx_dd_mul(h, h), t = ks_mx_dd_make(1.0), H = ks_mx_dd_make(0.0),
           s = ks_mx_dd_make(0.0);
  q = ks_mx_dd{-q.hi, -q.lo};
  for (int k = 1; k < 600; k++) {
    t = ks_mx_dd_div_d(ks_mx_dd_mul(t, q), (double)k * (double)k);
    H = ks_mx_dd_add(H, ks_mx_dd_div_d(ks_mx_dd_make(1.0), (double)k));
    ks_mx_dd term = ks_mx_dd_mul(t, H);
    s = ks_mx_dd_add(s, ks_mx_dd{-term.hi, -term.lo});
    if (__builtin_fabs(term.hi) < 0x1p-110 * __builtin_fabs(s.hi)) break;
  }
  ks_mx_dd j0 = ks_mx_dd_bessel_series(0, x, -1.0);
  double lg = __nv_log(0.5 * x) + KS_MX_EULER;
  ks_mx_dd a = ks_mx_dd_add(ks_mx_dd_mul(ks_mx_dd_make(lg), j0), s);
  return (2.0 / KS_MX_PI) * (a.hi + a.lo);
}

// Y1 for 0 < x < 25: -2/(pi x) + (2/pi) log(x/2) J1(x)
//   - (1/pi) sum_k (-1)^k (psi(k+1) + psi(k+2)) (x/2)^(2k+1) / (k! (k+1)!), the sum in double-double.
KS_IN double ks_mx_y1d(double x) {
  KS_MX_EXACT
  if (x >= KS_MX_BIG) return ks_mx_bessel_big(1, 1, x);
  ks_mx_dd h = ks_mx_dd_make(0.5 * x), q = ks_mx_dd_mul(h, h), t = h;
  q = ks_mx_dd{-q.hi, -q.lo};
  // psi(1) + psi(2) = 1 - 2 Euler; each step adds 1/k + 1/(k+1)
  ks_mx_dd ps = ks_mx_dd_add(ks_mx_dd_make(1.0), ks_mx_dd_make(-2.0 * KS_MX_EULER));
  ks_mx_dd s = ks_mx_dd_mul(t, ps);
  for (int k = 1; k < 600; k++) {
    t = ks_mx_dd_div_d(ks_mx_dd_mul(t, q), (double)k * (double)(k + 1));
    ps = ks_mx_dd_add(ps, ks_mx_dd_add(ks_mx_dd_div_d(ks_mx_dd_make(1.0), (double)k),
                                       ks_mx_dd_div_d(ks_mx_dd_make(1.0), (double)(k + 1))));
    ks_mx_dd term = ks_mx_dd_mul(t, ps);
    s = ks_mx_dd_add(s, term);
    if (__builtin_fabs(term.hi) < 0x1p-110 * __builtin_fabs(s.hi)) break;
  }
  ks_mx_dd j1 = ks_mx_dd_bessel_series(1, x, -1.0);
  double lg = __nv_log(0.5 * x);
  // (2/pi) log(x/2) J1 - s/pi - 2/(pi x) = (1/pi) (2 log(x/2) J1 - s - 2/x)
  ks_mx_dd a = ks_mx_dd_mul(ks_mx_dd_make(2.0 * lg), j1);
  a = ks_mx_dd_add(a, ks_mx_dd{-s.hi, -s.lo});
  a = ks_mx_dd_add(a, ks_mx_dd_div_d(ks_mx_dd_make(-2.0), x));
  return (a.hi + a.lo) / KS_MX_PI;
}

KS_NV double __nv_j0(double x) {
  KS_MX_EXACT
  if (__builtin_isinf(x)) return 0.0;
  if (!(x == x)) return x + x;
  return ks_mx_j0d(x);
}
KS_NV double __nv_j1(double x) {
  KS_MX_EXACT
  if (__builtin_isinf(x)) return __builtin_copysign(0.0, x);
  if (!(x == x)) return x + x;
  return ks_mx_j1d(x);
}
KS_NV double __nv_y0(double x) {
  KS_MX_EXACT
  if (!(x >= 0.0)) return __builtin_nan("");
  if (x == 0.0) return -__builtin_inf();
  if (__builtin_isinf(x)) return 0.0;
  return ks_mx_y0d(x);
}
KS_NV double __nv_y1(double x) {
  KS_MX_EXACT
  if (!(x >= 0.0)) return __builtin_nan("");
  if (x == 0.0) return -__builtin_inf();
  if (__builtin_isinf(x)) return 0.0;
  if (x < 0x1p-1020) return -__builtin_inf(); // -2/(pi x) overflows
  return ks_mx_y1d(x);
}

// J_n: the double-double series for x < 25 or x <= n, else forward recurrence from J0 and
// J1 (stable while k < x).
KS_NV double __nv_jn(int n, double x) {
  KS_MX_EXACT
  double sign = 1.0;
  if (n < 0) {
    n = -n;
    if (n & 1) sign = -1.0;
  }
  if (!(x == x)) return x + x;
  if (n == 0) return __nv_j0(x);
  if (__builtin_isinf(x)) return 0.0;
  if (x < 0) {
    x = -x;
    if (n & 1) sign = -sign;
  }
  if (n == 1) return sign * ks_mx_j1d(x);
  if (x == 0.0) return sign * 0.0;
  double r;
  if (x < KS_MX_BIG || x <= (double)n) {
    ks_mx_dd v = ks_mx_dd_bessel_series(n, x, -1.0);
    r = v.hi + v.lo;
  } else {
    double a = ks_mx_j0d(x), b = ks_mx_j1d(x);
    for (int k = 1; k < n; k++) {
      double c = (2.0 * k / x) * b - a;
      a = b;
      b = c;
    }
    r = b;
  }
  return sign * r;
}

// Y_n: forward recurrence from Y0 and Y1 (stable for Y), in double-double so its steps
// add no rounding of their own, until it overflows to -inf.
KS_NV double __nv_yn(int n, double x) {
  KS_MX_EXACT
  double sign = 1.0;
  if (n < 0) {
    n = -n;
    if (n & 1) sign = -1.0;
  }
  if (n == 0) return __nv_y0(x);
  if (!(x >= 0.0)) return __builtin_nan("");
  if (x == 0.0) return -__builtin_inf();
  if (__builtin_isinf(x)) return 0.0;
  ks_mx_dd a = ks_mx_dd_make(__nv_y0(x)), b = ks_mx_dd_make(__nv_y1(x));
  for (int k = 1; k < n && b.hi > -__builtin_inf(); k++) {
    ks_mx_dd c = ks_mx_dd_mul(ks_mx_dd_div_d(ks_mx_dd_make(2.0 * k), x), b);
    c = ks_mx_dd_add(c, ks_mx_dd{-a.hi, -a.lo});
    a = b;
    b = c;
  }
  if (!(b.hi > -__builtin_inf())) return sign * -__builtin_inf();
  return sign * (b.hi + b.lo);
}

// I0 and I1 in double: the double-double series below 30; above, Hankel's expansion
// e^x / sqrt(2 pi x) sum_k (-1)^k a_k(nu) / x^k with e^x taken as e^(x/2) e^(x/2), so the
// result stays finite up to where I_nu itself overflows (x ~ 713.98).
KS_IN double ks_mx_in_big(int nu, double x) {
  KS_MX_EXACT
  double mu = 4.0 * nu * nu, z = 1.0 / (8.0 * x), a = 1.0, s = 1.0, last = 2.0;
  for (int k = 1; k < 60; k++) {
    a *= -(mu - (double)(2 * k - 1) * (double)(2 * k - 1)) * z / k;
    double m = __builtin_fabs(a);
    if (m >= last) break;
    last = m;
    s += a;
    if (m < 0x1p-60) break;
  }
  double e = __nv_exp(0.5 * x);
  return (e * (s / __nv_sqrt(2.0 * KS_MX_PI * x))) * e;
}
KS_NV double __nv_cyl_bessel_i0(double x) {
  KS_MX_EXACT
  double a = __builtin_fabs(x);
  if (!(a == a)) return x + x;
  if (a == __builtin_inf()) return a;
  if (a < 30.0) {
    ks_mx_dd v = ks_mx_dd_bessel_series(0, a, 1.0);
    return v.hi + v.lo;
  }
  return ks_mx_in_big(0, a);
}
KS_NV double __nv_cyl_bessel_i1(double x) {
  KS_MX_EXACT
  double a = __builtin_fabs(x), r;
  if (!(a == a)) return x + x;
  if (a == __builtin_inf()) return x;
  if (a < 30.0) {
    ks_mx_dd v = ks_mx_dd_bessel_series(1, a, 1.0);
    r = v.hi + v.lo;
  } else {
    r = ks_mx_in_big(1, a);
  }
  return x < 0 ? -r : r;
}
#undef KS_MX_BIG

// ---- nan and nanf ----

// The tag's value as C's strtoull reads an n-char-sequence with base 0 (0x... hex, 0...
// octal, else decimal): 0 for an empty tag or any character that is not a digit of the
// base (a sign included), all ones when the value does not fit in 64 bits.
KS_IN unsigned long long ks_mx_nan_tag(const signed char *p) {
  if (p == 0) return 0;
  unsigned int base = 10;
  if (p[0] == '0') {
    base = 8;
    p++;
    if (p[0] == 'x' || p[0] == 'X') {
      base = 16;
      p++;
    }
  }
  unsigned long long v = 0;
  int over = 0;
  for (; *p; p++) {
    int c = *p;
    unsigned int d;
    if (c >= '0' && c <= '9') d = (unsigned int)(c - '0');
    else if (c >= 'a' && c <= 'f') d = (unsigned int)(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') d = (unsigned int)(c - 'A' + 10);
    else return 0;
    if (d >= base) return 0;
    if (v > (~0ull - d) / base) over = 1;
    v = v * base + d;
  }
  return over ? ~0ull : v;
}
KS_NV double __nv_nan(const signed char *tag) {
  unsigned long long m = ks_mx_nan_tag(tag) & 0x000fffffffffffffull;
  return __builtin_bit_cast(double, 0x7ff8000000000000ull | m);
}
KS_NV float __nv_nanf(const signed char *tag) {
  unsigned int m = (unsigned int)(ks_mx_nan_tag(tag) & 0x3fffffull);
  return __builtin_bit_cast(float, 0x7fc00000u | m);
}

// The CUDA Math API names for them (clang's math header has no nan or nanf).
static __device__ inline __attribute__((always_inline)) double nan(const char *tag) {
  return __nv_nan((const signed char *)tag);
}
static __device__ inline __attribute__((always_inline)) float nanf(const char *tag) {
  return __nv_nanf((const signed char *)tag);
}

// isnan isinf isfinite signbit without an include, as nvcc has them (clang declares its
// device overloads only through its own <cmath> wrapper, which the prelude does not use).
#define KS_MX_CLASS(NAME, F, D)                                                                       \
  static __device__ inline __attribute__((always_inline)) bool NAME(float a) { return F(a) != 0; }   \
  static __device__ inline __attribute__((always_inline)) bool NAME(double a) { return D(a) != 0; }
KS_MX_CLASS(isnan, __nv_isnanf, __nv_isnand)
KS_MX_CLASS(isinf, __nv_isinff, __nv_isinfd)
KS_MX_CLASS(isfinite, __nv_finitef, __nv_isfinited)
KS_MX_CLASS(signbit, __nv_signbitf, __nv_signbitd)
#undef KS_MX_CLASS

#undef KS_MX_EXACT
#undef KS_NV
#undef KS_IN
#undef KS_MX_PI
#undef KS_MX_LN2
#undef KS_MX_EULER
#undef KS_MX_LNSQRT2PI
#endif // KERNELSCOPE_MATH_EXTRA_H
