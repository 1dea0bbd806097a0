// mufu.cu: exhaustive measurement of the H200's .approx special functions.
//
// Build and run on the device (see scripts/mufu/run.sh):
//   nvcc -O3 -arch=sm_90 -o mufu mufu.cu && ./mufu OUTDIR
//
// For every f32 function below it evaluates all 2^32 inputs with inline PTX and
// writes, per bucket (sign and biased exponent of the input: bucket = bits>>23,
// 512 buckets), a checksum and a histogram of the error against the
// correctly rounded value (computed in double and rounded to f32). The
// checksum of a bucket is the sum mod 2^64 of mix64(in<<32 | out) over its
// inputs, with mix64 the splitmix64 finaliser; gpu/arith's tests recompute it
// from the model. For chosen buckets it also writes the error against the
// reference as int8 (127: see the exception list) so the structure can be
// fitted off the device. 16-bit functions are written out whole (2^16 inputs).
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <vector>
#include <string>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1); } } while (0)

__host__ __device__ static inline uint64_t mix64(uint64_t z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

enum {
  RCP, RCPF, RSQ, RSQF, SQRT, SQRTF, EX2, EX2F, LG2, LG2F, SIN, SINF, COS, COSF, TANH, NF32
};
static const char *f32names[NF32] = {
  "rcp.approx.f32", "rcp.approx.ftz.f32", "rsqrt.approx.f32", "rsqrt.approx.ftz.f32",
  "sqrt.approx.f32", "sqrt.approx.ftz.f32", "ex2.approx.f32", "ex2.approx.ftz.f32",
  "lg2.approx.f32", "lg2.approx.ftz.f32", "sin.approx.f32", "sin.approx.ftz.f32",
  "cos.approx.f32", "cos.approx.ftz.f32", "tanh.approx.f32"};
static const bool f32ftz[NF32] = {0,1,0,1,0,1,0,1,0,1,0,1,0,1,0};

template <int OP> __device__ __forceinline__ uint32_t apply(uint32_t xb) {
  float a = __uint_as_float(xb), r;
  switch (OP) {
  case RCP: asm("rcp.approx.f32 %0, %1;" : "=f"(r) : "f"(a)); break;
  case RCPF: asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(a)); break;
  case RSQ: asm("rsqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(a)); break;
  case RSQF: asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(a)); break;
  case SQRT: asm("sqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(a)); break;
  case SQRTF: asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(a)); break;
  case EX2: asm("ex2.approx.f32 %0, %1;" : "=f"(r) : "f"(a)); break;
  case EX2F: asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(a)); break;
  case LG2: asm("lg2.approx.f32 %0, %1;" : "=f"(r) : "f"(a)); break;
  case LG2F: asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(a)); break;
  case SIN: asm("sin.approx.f32 %0, %1;" : "=f"(r) : "f"(a)); break;
  case SINF: asm("sin.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(a)); break;
  case COS: asm("cos.approx.f32 %0, %1;" : "=f"(r) : "f"(a)); break;
  case COSF: asm("cos.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(a)); break;
  case TANH: asm("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(a)); break;
  }
  return __float_as_uint(r);
}

__device__ __forceinline__ uint32_t ftzb(uint32_t x) {
  return (x & 0x7f800000u) == 0 ? (x & 0x80000000u) : x;
}

// ref returns the f32 bits of the correctly rounded (via double) function.
__device__ uint32_t ref(int op, uint32_t xb, bool ftz) {
  if (ftz) xb = ftzb(xb);
  double x = (double)__uint_as_float(xb), v;
  switch (op) {
  case RCP: case RCPF: v = 1.0 / x; break;
  case RSQ: case RSQF: v = 1.0 / sqrt(x); break;
  case SQRT: case SQRTF: v = sqrt(x); break;
  case EX2: case EX2F: v = exp2(x); break;
  case LG2: case LG2F: v = log2(x); break;
  case SIN: case SINF: v = sin(x); break;
  case COS: case COSF: v = cos(x); break;
  default: v = tanh(x); break;
  }
  float f = __double2float_rn(v);
  uint32_t r = __float_as_uint(f);
  if (f != f) return 0x7fffffffu;
  if (ftz) r = ftzb(r);
  return r;
}

__device__ __forceinline__ long long ordv(uint32_t x) {
  return (x & 0x80000000u) ? -(long long)(x & 0x7fffffffu) - 1 : (long long)x;
}

#define NHIST 12  // err -4..4 (9 bins), <-4, >4, NaN disagreement
struct Stats {
  unsigned long long hash[512];
  unsigned long long refhash[512];
  unsigned long long hist[512][NHIST];
};

// eval: outputs for inputs [base, base+n) into out (index relative to base).
template <int OP> __global__ void evalk(uint32_t *out, uint64_t base, uint64_t n) {
  uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
  if (i < n) out[i] = apply<OP>((uint32_t)(base + i));
}

// analyse: per-bucket hash, refhash and histogram; chunk is a multiple of 2^23
// long and each block stays in one bucket.
__global__ void analysek(const uint32_t *out, uint64_t base, int op, bool ftz, Stats *st,
                         int8_t *errout, uint64_t errbase, uint64_t errn) {
  __shared__ unsigned long long sh, srh, shist[NHIST];
  const int PER = 64;
  uint64_t start = base + (uint64_t)blockIdx.x * blockDim.x * PER;
  if (threadIdx.x == 0) { sh = 0; srh = 0; for (int k = 0; k < NHIST; k++) shist[k] = 0; }
  __syncthreads();
  unsigned long long h = 0, rh = 0;
  unsigned int lh[NHIST];
  for (int k = 0; k < NHIST; k++) lh[k] = 0;
  for (int j = 0; j < PER; j++) {
    uint64_t in = start + (uint64_t)j * blockDim.x + threadIdx.x;
    uint32_t o = out[in - base];
    uint32_t r = ref(op, (uint32_t)in, ftz);
    h += mix64(in << 32 | o);
    rh += mix64(in << 32 | r);
    int bin, code;
    bool on = (o & 0x7fffffffu) > 0x7f800000u, rn = (r & 0x7fffffffu) > 0x7f800000u;
    if (on || rn) {
      if (on && rn && o == 0x7fffffffu) { bin = 4; code = 0; } else { bin = 11; code = 127; }
    } else {
      long long d = ordv(o) - ordv(r);
      bin = d < -4 ? 9 : d > 4 ? 10 : (int)d + 4;
      code = (d >= -126 && d <= 126) ? (int)d : 127;
    }
    lh[bin]++;
    if (errout && in >= errbase && in < errbase + errn) errout[in - errbase] = (int8_t)code;
  }
  atomicAdd(&sh, h);
  atomicAdd(&srh, rh);
  for (int k = 0; k < NHIST; k++) if (lh[k]) atomicAdd(&shist[k], (unsigned long long)lh[k]);
  __syncthreads();
  if (threadIdx.x == 0) {
    int b = (int)(start >> 23);
    atomicAdd(&st->hash[b], sh);
    atomicAdd(&st->refhash[b], srh);
    for (int k = 0; k < NHIST; k++) atomicAdd(&st->hist[b][k], shist[k]);
  }
}

typedef void (*evalfn)(uint32_t *, uint64_t, uint64_t);
static evalfn f32k[NF32] = {evalk<RCP>, evalk<RCPF>, evalk<RSQ>, evalk<RSQF>, evalk<SQRT>,
  evalk<SQRTF>, evalk<EX2>, evalk<EX2F>, evalk<LG2>, evalk<LG2F>, evalk<SIN>, evalk<SINF>,
  evalk<COS>, evalk<COSF>, evalk<TANH>};

// Buckets whose error arrays are written out (bits>>23).
static std::vector<int> dumpBuckets(int op) {
  switch (op) {
  case RCP: return {127, 0, 253, 254, 256 + 127};
  case RCPF: return {0, 253, 254};
  case RSQ: return {127, 128, 0};
  case SQRT: return {127, 128, 0};
  case RSQF: case SQRTF: return {0};
  case EX2: return {127, 126, 128, 133, 120, 256 + 127, 256 + 133};
  case EX2F: return {256 + 133};
  case LG2: return {127, 126, 128, 0};
  case LG2F: return {0};
  case SIN: case COS: return {127, 128, 129, 120, 256 + 127};
  case TANH: return {110, 125, 126, 127, 128, 129};
  default: return {};
  }
}

static void writeStats(const char *dir, const char *name, Stats *st) {
  std::string p = std::string(dir) + "/" + name + ".stats";
  FILE *f = fopen(p.c_str(), "w");
  fprintf(f, "# bucket hash refhash hist[-4..4] lt-4 gt4 nan\n");
  for (int b = 0; b < 512; b++) {
    fprintf(f, "%d %016llx %016llx", b, st->hash[b], st->refhash[b]);
    for (int k = 0; k < NHIST; k++) fprintf(f, " %llu", st->hist[b][k]);
    fprintf(f, "\n");
  }
  fclose(f);
}

// ---- 16-bit functions, whole tables ----
__global__ void k16(uint16_t *o) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 65536) return;
  unsigned short h = (unsigned short)i, r;
  asm("ex2.approx.f16 %0, %1;" : "=h"(r) : "h"(h)); o[i] = r;
  asm("tanh.approx.f16 %0, %1;" : "=h"(r) : "h"(h)); o[65536 + i] = r;
  asm("ex2.approx.ftz.bf16 %0, %1;" : "=h"(r) : "h"(h)); o[2 * 65536 + i] = r;
  asm("tanh.approx.bf16 %0, %1;" : "=h"(r) : "h"(h)); o[3 * 65536 + i] = r;
  // f32 MUFU on the widened inputs, for hypotheses (f16->f32, bf16->f32)
  float xf = __half2float(__ushort_as_half(h)), xb = __uint_as_float((uint32_t)h << 16), y;
  uint32_t *o32 = (uint32_t *)(o + 4 * 65536);
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(xf)); o32[i] = __float_as_uint(y);
  asm("tanh.approx.f32 %0, %1;" : "=f"(y) : "f"(xf)); o32[65536 + i] = __float_as_uint(y);
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(xb)); o32[2 * 65536 + i] = __float_as_uint(y);
  asm("tanh.approx.f32 %0, %1;" : "=f"(y) : "f"(xb)); o32[3 * 65536 + i] = __float_as_uint(y);
}

// x2 forms over all 2^32 pairs against the scalar tables.
__global__ void kx2(const uint16_t *tab, unsigned long long *bad, uint64_t base) {
  uint64_t i = base + blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
  uint32_t a = (uint32_t)i, r;
  unsigned int nb[4] = {0, 0, 0, 0};
  asm("ex2.approx.f16x2 %0, %1;" : "=r"(r) : "r"(a));
  nb[0] += (r & 0xffff) != tab[a & 0xffff]; nb[0] += (r >> 16) != tab[a >> 16];
  asm("tanh.approx.f16x2 %0, %1;" : "=r"(r) : "r"(a));
  nb[1] += (r & 0xffff) != tab[65536 + (a & 0xffff)]; nb[1] += (r >> 16) != tab[65536 + (a >> 16)];
  asm("ex2.approx.ftz.bf16x2 %0, %1;" : "=r"(r) : "r"(a));
  nb[2] += (r & 0xffff) != tab[2 * 65536 + (a & 0xffff)]; nb[2] += (r >> 16) != tab[2 * 65536 + (a >> 16)];
  asm("tanh.approx.bf16x2 %0, %1;" : "=r"(r) : "r"(a));
  nb[3] += (r & 0xffff) != tab[3 * 65536 + (a & 0xffff)]; nb[3] += (r >> 16) != tab[3 * 65536 + (a >> 16)];
  for (int k = 0; k < 4; k++) if (nb[k]) atomicAdd(&bad[k], (unsigned long long)nb[k]);
}

// ---- division: fixed operand against all 2^32 of the other ----
enum { DIVA, DIVAF, DIVF, DIVFF, NDIV };
static const char *divnames[NDIV] = {"div.approx.f32", "div.approx.ftz.f32", "div.full.f32", "div.full.ftz.f32"};
template <int OP> __device__ __forceinline__ uint32_t dapply(uint32_t xa, uint32_t xb) {
  float a = __uint_as_float(xa), b = __uint_as_float(xb), r;
  switch (OP) {
  case DIVA: asm("div.approx.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); break;
  case DIVAF: asm("div.approx.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); break;
  case DIVF: asm("div.full.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); break;
  case DIVFF: asm("div.full.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); break;
  }
  return __float_as_uint(r);
}
// mode 0: a = fixed, b = i; mode 1: a = i, b = fixed.
template <int OP> __global__ void devalk(uint32_t *out, uint64_t base, uint64_t n, uint32_t fixed, int mode) {
  uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint32_t v = (uint32_t)(base + i);
  out[i] = mode == 0 ? dapply<OP>(fixed, v) : dapply<OP>(v, fixed);
}
typedef void (*devalfn)(uint32_t *, uint64_t, uint64_t, uint32_t, int);
static devalfn divk[NDIV] = {devalk<DIVA>, devalk<DIVAF>, devalk<DIVF>, devalk<DIVFF>};

__device__ uint32_t dref(uint32_t a, uint32_t b, bool ftz) {
  if (ftz) { a = ftzb(a); b = ftzb(b); }
  float f = __double2float_rn((double)__uint_as_float(a) / (double)__uint_as_float(b));
  if (f != f) return 0x7fffffffu;
  uint32_t r = __float_as_uint(f);
  return ftz ? ftzb(r) : r;
}
__global__ void danalysek(const uint32_t *out, uint64_t base, bool ftz, uint32_t fixed, int mode,
                          Stats *st, int8_t *errout, uint64_t errbase, uint64_t errn) {
  __shared__ unsigned long long sh, srh, shist[NHIST];
  const int PER = 64;
  uint64_t start = base + (uint64_t)blockIdx.x * blockDim.x * PER;
  if (threadIdx.x == 0) { sh = 0; srh = 0; for (int k = 0; k < NHIST; k++) shist[k] = 0; }
  __syncthreads();
  unsigned long long h = 0, rh = 0;
  unsigned int lh[NHIST];
  for (int k = 0; k < NHIST; k++) lh[k] = 0;
  for (int j = 0; j < PER; j++) {
    uint64_t in = start + (uint64_t)j * blockDim.x + threadIdx.x;
    uint32_t o = out[in - base];
    uint32_t r = mode == 0 ? dref(fixed, (uint32_t)in, ftz) : dref((uint32_t)in, fixed, ftz);
    h += mix64(in << 32 | o);
    rh += mix64(in << 32 | r);
    int bin, code;
    bool on = (o & 0x7fffffffu) > 0x7f800000u, rn = (r & 0x7fffffffu) > 0x7f800000u;
    if (on || rn) {
      if (on && rn && o == 0x7fffffffu) { bin = 4; code = 0; } else { bin = 11; code = 127; }
    } else {
      long long d = ordv(o) - ordv(r);
      bin = d < -4 ? 9 : d > 4 ? 10 : (int)d + 4;
      code = (d >= -126 && d <= 126) ? (int)d : 127;
    }
    lh[bin]++;
    if (errout && in >= errbase && in < errbase + errn) errout[in - errbase] = (int8_t)code;
  }
  atomicAdd(&sh, h);
  atomicAdd(&srh, rh);
  for (int k = 0; k < NHIST; k++) if (lh[k]) atomicAdd(&shist[k], (unsigned long long)lh[k]);
  __syncthreads();
  if (threadIdx.x == 0) {
    int b = (int)(start >> 23);
    atomicAdd(&st->hash[b], sh);
    atomicAdd(&st->refhash[b], srh);
    for (int k = 0; k < NHIST; k++) atomicAdd(&st->hist[b][k], shist[k]);
  }
}

// ---- .ftz boundary cases ----
// Each case: op, a, b, c (f32 bits; for cvt a/b hold the f64 bits lo/hi).
enum { FMULRN, FMULRZ, FMULRM, FMULRP, FFMARN, FFMARZ, FFMARM, FFMARP, FDIVRN, FDIVRZ, FDIVRM, FDIVRP,
       FCVTRN, FCVTRZ, FCVTRM, FCVTRP, FDIVA, FDIVFULL, FEX2, FRCPA, FMULRN0, FFMARN0, FDIVRN0, FCVTRN0, NFTZ };
static const char *ftznames[NFTZ] = {"mul.rn.ftz.f32", "mul.rz.ftz.f32", "mul.rm.ftz.f32", "mul.rp.ftz.f32",
  "fma.rn.ftz.f32", "fma.rz.ftz.f32", "fma.rm.ftz.f32", "fma.rp.ftz.f32",
  "div.rn.ftz.f32", "div.rz.ftz.f32", "div.rm.ftz.f32", "div.rp.ftz.f32",
  "cvt.rn.ftz.f32.f64", "cvt.rz.ftz.f32.f64", "cvt.rm.ftz.f32.f64", "cvt.rp.ftz.f32.f64",
  "div.approx.ftz.f32", "div.full.ftz.f32", "ex2.approx.ftz.f32", "rcp.approx.ftz.f32",
  "mul.rn.f32", "fma.rn.f32", "div.rn.f32", "cvt.rn.f32.f64"};
__global__ void kftz(const uint32_t *cs, uint32_t *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const uint32_t *c = cs + 4 * i;
  float a = __uint_as_float(c[1]), b = __uint_as_float(c[2]), z = __uint_as_float(c[3]), r = 0;
  double d = __hiloint2double((int)c[2], (int)c[1]);
  switch (c[0]) {
  case FMULRN: asm("mul.rn.ftz.f32 %0,%1,%2;" : "=f"(r) : "f"(a), "f"(b)); break;
  case FMULRZ: asm("mul.rz.ftz.f32 %0,%1,%2;" : "=f"(r) : "f"(a), "f"(b)); break;
  case FMULRM: asm("mul.rm.ftz.f32 %0,%1,%2;" : "=f"(r) : "f"(a), "f"(b)); break;
  case FMULRP: asm("mul.rp.ftz.f32 %0,%1,%2;" : "=f"(r) : "f"(a), "f"(b)); break;
  case FFMARN: asm("fma.rn.ftz.f32 %0,%1,%2,%3;" : "=f"(r) : "f"(a), "f"(b), "f"(z)); break;
  case FFMARZ: asm("fma.rz.ftz.f32 %0,%1,%2,%3;" : "=f"(r) : "f"(a), "f"(b), "f"(z)); break;
  case FFMARM: asm("fma.rm.ftz.f32 %0,%1,%2,%3;" : "=f"(r) : "f"(a), "f"(b), "f"(z)); break;
  case FFMARP: asm("fma.rp.ftz.f32 %0,%1,%2,%3;" : "=f"(r) : "f"(a), "f"(b), "f"(z)); break;
  case FDIVRN: asm("div.rn.ftz.f32 %0,%1,%2;" : "=f"(r) : "f"(a), "f"(b)); break;
  case FDIVRZ: asm("div.rz.ftz.f32 %0,%1,%2;" : "=f"(r) : "f"(a), "f"(b)); break;
  case FDIVRM: asm("div.rm.ftz.f32 %0,%1,%2;" : "=f"(r) : "f"(a), "f"(b)); break;
  case FDIVRP: asm("div.rp.ftz.f32 %0,%1,%2;" : "=f"(r) : "f"(a), "f"(b)); break;
  case FCVTRN: asm("cvt.rn.ftz.f32.f64 %0,%1;" : "=f"(r) : "d"(d)); break;
  case FCVTRZ: asm("cvt.rz.ftz.f32.f64 %0,%1;" : "=f"(r) : "d"(d)); break;
  case FCVTRM: asm("cvt.rm.ftz.f32.f64 %0,%1;" : "=f"(r) : "d"(d)); break;
  case FCVTRP: asm("cvt.rp.ftz.f32.f64 %0,%1;" : "=f"(r) : "d"(d)); break;
  case FDIVA: asm("div.approx.ftz.f32 %0,%1,%2;" : "=f"(r) : "f"(a), "f"(b)); break;
  case FDIVFULL: asm("div.full.ftz.f32 %0,%1,%2;" : "=f"(r) : "f"(a), "f"(b)); break;
  case FEX2: asm("ex2.approx.ftz.f32 %0,%1;" : "=f"(r) : "f"(a)); break;
  case FRCPA: asm("rcp.approx.ftz.f32 %0,%1;" : "=f"(r) : "f"(a)); break;
  case FMULRN0: asm("mul.rn.f32 %0,%1,%2;" : "=f"(r) : "f"(a), "f"(b)); break;
  case FFMARN0: asm("fma.rn.f32 %0,%1,%2,%3;" : "=f"(r) : "f"(a), "f"(b), "f"(z)); break;
  case FDIVRN0: asm("div.rn.f32 %0,%1,%2;" : "=f"(r) : "f"(a), "f"(b)); break;
  case FCVTRN0: asm("cvt.rn.f32.f64 %0,%1;" : "=f"(r) : "d"(d)); break;
  }
  out[i] = __float_as_uint(r);
}

static uint64_t rng = 0x1234567;
static uint64_t nextr() { rng += 1; return mix64(rng); }
static float f32of(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
static uint32_t bitsof(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }

static void ftzCases(const char *dir) {
  const double MN = 0x1p-126;
  std::vector<uint32_t> cs;
  auto push = [&](int op, uint32_t a, uint32_t b, uint32_t c) { cs.push_back(op); cs.push_back(a); cs.push_back(b); cs.push_back(c); };
  const int PER = 2048;
  for (int k = 0; k < PER; k++) {
    // mul/fma(c=0): a in [1,2), b the largest f32 with a*b < MN, and its two
    // neighbours above and below.
    float a = f32of(0x3f800000u | (uint32_t)(nextr() & 0x7fffff));
    float b = (float)(MN / a);
    while ((double)a * b >= MN) b = f32of(bitsof(b) - 1);
    for (int d = -1; d <= 1; d++) {
      uint32_t bb = bitsof(b) + d;
      for (int op : {FMULRN, FMULRZ, FMULRM, FMULRP, FMULRN0}) push(op, bitsof(a), bb, 0);
      for (int op : {FFMARN, FFMARZ, FFMARM, FFMARP, FFMARN0}) push(op, bitsof(a), bb, 0);
    }
    // fma with c = -MN: a*b just below 2*MN
    float b2 = (float)(2 * MN / a);
    while ((double)a * b2 >= 2 * MN) b2 = f32of(bitsof(b2) - 1);
    for (int op : {FFMARN, FFMARZ, FFMARM, FFMARP, FFMARN0}) push(op, bitsof(a), bitsof(b2), 0x80800000u);
    // div: q = x / y just below MN, y in [1,2)
    float y = a;
    float x = (float)(MN * y);
    while ((double)x / y >= MN) x = f32of(bitsof(x) - 1);
    for (int op : {FDIVRN, FDIVRZ, FDIVRM, FDIVRP, FDIVA, FDIVFULL, FDIVRN0}) push(op, bitsof(x), bitsof(y), 0);
    // cvt: f64 just below MN
    double dv = MN * (1 - (double)(nextr() % 4096 + 1) * 0x1p-36);
    uint64_t db; memcpy(&db, &dv, 8);
    for (int op : {FCVTRN, FCVTRZ, FCVTRM, FCVTRP, FCVTRN0}) push(op, (uint32_t)db, (uint32_t)(db >> 32), 0);
    // ex2 just below -126; rcp just above 2^126
    push(FEX2, 0xc2fc0000u + (uint32_t)(k % 64), 0, 0);
    push(FEX2, 0xc2fc0000u - (uint32_t)(k % 64), 0, 0);
    push(FRCPA, 0x7e800000u + (uint32_t)(k % 1024), 0, 0);
  }
  int n = cs.size() / 4;
  uint32_t *dc, *dout;
  CK(cudaMalloc(&dc, cs.size() * 4)); CK(cudaMalloc(&dout, n * 4));
  CK(cudaMemcpy(dc, cs.data(), cs.size() * 4, cudaMemcpyHostToDevice));
  kftz<<<(n + 255) / 256, 256>>>(dc, dout, n);
  CK(cudaDeviceSynchronize());
  std::vector<uint32_t> out(n);
  CK(cudaMemcpy(out.data(), dout, n * 4, cudaMemcpyDeviceToHost));
  std::string p = std::string(dir) + "/ftz_cases.txt";
  FILE *f = fopen(p.c_str(), "w");
  fprintf(f, "# op a b c result (hex f32 bits; cvt: a=lo b=hi of the f64)\n");
  for (int i = 0; i < n; i++) fprintf(f, "%s %08x %08x %08x %08x\n", ftznames[cs[4 * i]], cs[4 * i + 1], cs[4 * i + 2], cs[4 * i + 3], out[i]);
  fclose(f);
  cudaFree(dc); cudaFree(dout);
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : ".";
  const uint64_t N = 1ull << 32, CH = 1ull << 31;
  uint32_t *dout; CK(cudaMalloc(&dout, CH * 4));
  Stats *dst; CK(cudaMalloc(&dst, sizeof(Stats)));
  int8_t *derr; CK(cudaMalloc(&derr, 1 << 23));
  Stats *hst = (Stats *)malloc(sizeof(Stats));
  std::vector<int8_t> herr(1 << 23);
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  ftzCases(dir);
  fprintf(stderr, "ftz cases done\n");
  // 16-bit tables
  {
    uint16_t *d16; CK(cudaMalloc(&d16, 65536 * 2 * 4 + 65536 * 4 * 4));
    k16<<<256, 256>>>(d16);
    CK(cudaDeviceSynchronize());
    std::vector<uint16_t> h(65536 * 4 + 65536 * 8);
    CK(cudaMemcpy(h.data(), d16, h.size() * 2, cudaMemcpyDeviceToHost));
    std::string p = std::string(dir) + "/tab16.bin";
    FILE *f = fopen(p.c_str(), "wb"); fwrite(h.data(), 2, h.size(), f); fclose(f);
    unsigned long long *dbad; CK(cudaMalloc(&dbad, 32)); CK(cudaMemset(dbad, 0, 32));
    for (uint64_t b = 0; b < N; b += CH) kx2<<<CH / 256, 256>>>(d16, dbad, b);
    unsigned long long bad[4]; CK(cudaMemcpy(bad, dbad, 32, cudaMemcpyDeviceToHost));
    p = std::string(dir) + "/x2.txt";
    f = fopen(p.c_str(), "w");
    fprintf(f, "lanes of the x2 form (over all 2^32 pairs, 2^33 lanes) differing from the scalar form\nex2.approx.f16x2 %llu\ntanh.approx.f16x2 %llu\nex2.approx.ftz.bf16x2 %llu\ntanh.approx.bf16x2 %llu\n", bad[0], bad[1], bad[2], bad[3]);
    fclose(f);
    fprintf(stderr, "16-bit done\n");
  }
  for (int op = 0; op < NF32; op++) {
    cudaEventRecord(e0);
    CK(cudaMemset(dst, 0, sizeof(Stats)));
    std::vector<int> bks = dumpBuckets(op);
    for (uint64_t base = 0; base < N; base += CH) {
      f32k[op]<<<CH / 256, 256>>>(dout, base, CH);
      analysek<<<CH / (256 * 64), 256>>>(dout, base, op, f32ftz[op], dst, nullptr, 0, 0);
      for (int b : bks) {
        uint64_t eb = (uint64_t)b << 23;
        if (eb < base || eb >= base + CH) continue;
        // re-run the analysis of this bucket alone with the error output
        Stats *tmp; CK(cudaMalloc(&tmp, sizeof(Stats))); CK(cudaMemset(tmp, 0, sizeof(Stats)));
        analysek<<<(1 << 23) / (256 * 64), 256>>>(dout + (eb - base), eb, op, f32ftz[op], tmp, derr, eb, 1 << 23);
        CK(cudaDeviceSynchronize());
        cudaFree(tmp);
        CK(cudaMemcpy(herr.data(), derr, 1 << 23, cudaMemcpyDeviceToHost));
        std::vector<uint32_t> ho(1 << 23);
        CK(cudaMemcpy(ho.data(), dout + (eb - base), 4 << 23, cudaMemcpyDeviceToHost));
        char p[512]; snprintf(p, sizeof p, "%s/err_%s_%03d.i8", dir, f32names[op], b);
        FILE *f = fopen(p, "wb"); fwrite(herr.data(), 1, herr.size(), f); fclose(f);
        snprintf(p, sizeof p, "%s/exc_%s_%03d.txt", dir, f32names[op], b);
        f = fopen(p, "w");
        int ne = 0;
        for (uint32_t i = 0; i < (1u << 23); i++) if (herr[i] == 127) { if (ne < 20000) fprintf(f, "%08x %08x\n", (uint32_t)(eb + i), ho[i]); ne++; }
        fprintf(f, "# total %d\n", ne);
        fclose(f);
      }
    }
    CK(cudaDeviceSynchronize());
    cudaEventRecord(e1); cudaEventSynchronize(e1);
    float ms; cudaEventElapsedTime(&ms, e0, e1);
    CK(cudaMemcpy(hst, dst, sizeof(Stats), cudaMemcpyDeviceToHost));
    writeStats(dir, f32names[op], hst);
    fprintf(stderr, "%s %.0f ms\n", f32names[op], ms);
  }
  // division
  const uint32_t fixedA[] = {0x3f800000u, 0x3fc00000u, 0x3fffffffu, 0x3f9d70a4u, 0x4049fdb0u, 0xbf3504f3u};
  for (int op = 0; op < NDIV; op++) {
    for (int mode = 0; mode < 2; mode++) {
      for (uint32_t fx : fixedA) {
        CK(cudaMemset(dst, 0, sizeof(Stats)));
        bool dump = (fx == 0x3f800000u || fx == 0x3fc00000u) && op != DIVFF;
        for (uint64_t base = 0; base < N; base += CH) {
          divk[op]<<<CH / 256, 256>>>(dout, base, CH, fx, mode);
          danalysek<<<CH / (256 * 64), 256>>>(dout, base, op == DIVAF || op == DIVFF, fx, mode, dst, nullptr, 0, 0);
          int dbs[] = {127, 0, 253, 254};
          for (int b : dbs) {
            uint64_t eb = (uint64_t)b << 23;
            if (!dump || eb < base || eb >= base + CH) continue;
            if (b != 127 && fx != 0x3f800000u) continue;
            Stats *tmp; CK(cudaMalloc(&tmp, sizeof(Stats))); CK(cudaMemset(tmp, 0, sizeof(Stats)));
            danalysek<<<(1 << 23) / (256 * 64), 256>>>(dout + (eb - base), eb, op == DIVAF || op == DIVFF, fx, mode, tmp, derr, eb, 1 << 23);
            CK(cudaDeviceSynchronize());
            cudaFree(tmp);
            CK(cudaMemcpy(herr.data(), derr, 1 << 23, cudaMemcpyDeviceToHost));
            char p[512]; snprintf(p, sizeof p, "%s/err_%s_%s%08x_%03d.i8", dir, divnames[op], mode == 0 ? "a" : "b", fx, b);
            FILE *f = fopen(p, "wb"); fwrite(herr.data(), 1, herr.size(), f); fclose(f);
          }
        }
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(hst, dst, sizeof(Stats), cudaMemcpyDeviceToHost));
        char nm[256]; snprintf(nm, sizeof nm, "%s_%s%08x", divnames[op], mode == 0 ? "a" : "b", fx);
        writeStats(dir, nm, hst);
      }
    }
    fprintf(stderr, "%s done\n", divnames[op]);
  }
  return 0;
}
