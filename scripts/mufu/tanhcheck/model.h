// model.h: gpu/arith's MUFU.TANH model (mufu_tanh.go) in C, for tanhcheck.cu
// on the device and host.c here. Include tab.h (tab.sh) first; define HD and
// TANH_MEM (__host__ __device__, __device__) for CUDA.
#ifndef HD
#define HD
#endif

// tanhBins of gpu/arith/mufu_tanh.go: drop, scale, first segment; biased
// exponents 119 to 130.
TANH_MEM const unsigned TANH_BINS[12][3] = {
    {6, 38, 0}, {6, 38, 1}, {6, 38, 2}, {5, 38, 3}, {5, 38, 5}, {4, 38, 7},
    {4, 38, 11}, {4, 38, 15}, {3, 38, 19}, {2, 39, 27}, {3, 38, 43}, {3, 38, 51}};

// mufu_sq is gpu/arith's mufuSq: partial products of x^2 (17 bits) in
// columns 19 and above, shifted right by 19.
HD static inline unsigned long long mufu_sq(unsigned long long x) {
  unsigned long long s = 0;
  for (unsigned i = 0; i < 17; i++) {
    if (!(x >> i & 1)) continue;
    if (2 * i >= 19) s += 1ull << (2 * i);
    unsigned lo = i + 1;
    if (18 - (int)i > (int)lo) lo = 18 - i;
    if (lo < 17) s += (x >> lo << lo) << (i + 1);
  }
  return s >> 19;
}

// tanh_model is MUFU.TANH (tanh.approx.f32) on f32 bits.
HD static inline unsigned tanh_model(unsigned xb) {
  unsigned a = xb & 0x7fffffffu, sgn = xb & 0x80000000u;
  if (a > 0x7f800000u) return 0x7fffffffu;          // NaN: canonical
  if (a < (119u << 23)) return xb;                  // |x| < 2^-8: x
  if (a >= (131u << 23)) return sgn | 0x3f800000u;  // |x| >= 16, Inf: ±1
  const unsigned *b = TANH_BINS[(a >> 23) - 119];
  unsigned m = a & 0x7fffffu;
  const long long *c = TANH_COEF[b[2] + (m >> (b[0] + 17))];
  unsigned long long x2 = m >> b[0] & 0x1ffffu;
  unsigned long long y = (unsigned long long)(c[0] + c[1] * (long long)x2 + c[2] * (long long)mufu_sq(x2));
  int n = 64 - __builtin_clzll(y);
  unsigned long long mant = y >> (n - 24);  // 24 significant bits, truncated
  int e = n - 1 - (int)b[1];                // y 2^-scale = mant 2^(n-24-scale)
  return sgn | (unsigned)(e + 127) << 23 | (unsigned)(mant & 0x7fffffu);
}

// trunc16 is gpu/arith's trunc32To16 for results in [-1, 1]: f32 bits to f16
// (bf: bf16) toward zero; NaN gives 0x7fff.
HD static inline unsigned short trunc16(unsigned r, int bf) {
  if ((r & 0x7fffffffu) > 0x7f800000u) return 0x7fff;
  if (bf) return (unsigned short)(r >> 16);
  unsigned s = r >> 16 & 0x8000u;
  int e = (int)(r >> 23 & 0xff) - 127;
  unsigned m = r & 0x7fffffu;
  if (e == -127) return (unsigned short)s;  // f32 zero or subnormal: below 2^-24
  if (e >= -14) return (unsigned short)(s | (unsigned)(e + 15) << 10 | m >> 13);
  int sh = -(e + 1);  // subnormal f16: (2^23 + m) 2^(e+1) units of 2^-24
  return (unsigned short)(s | (sh >= 32 ? 0 : (0x800000u | m) >> sh));
}

// widen16 is the f32 bits of the f16 value h (exact).
HD static inline unsigned widen16(unsigned short h) {
  unsigned s = (unsigned)(h & 0x8000) << 16, e = h >> 10 & 0x1f, m = h & 0x3ff;
  if (e == 0x1f) return s | 0x7f800000u | m << 13;  // Inf, NaN
  if (e != 0) return s | (e + 112) << 23 | m << 13;
  if (m == 0) return s;
  int k = 0;  // subnormal: m 2^-24, normalise
  while (!(m & 0x400)) { m <<= 1; k++; }
  return s | (unsigned)(113 - k) << 23 | (m & 0x3ff) << 13;
}
