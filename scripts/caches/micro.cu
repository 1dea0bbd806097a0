// Cache-policy and atomic-throughput microbenchmarks for the H200 (sm_90).
// Built and run by scripts/caches/device.sh. Usage:
//   micro ncu    launches every policy probe once, in the order of micro_labels.txt (run under ncu)
//   micro time   times the atomic-throughput cases with CUDA events (no ncu) and prints a CSV
// All kernels are our own. Every CUDA call is checked; spins give up after a bounded time.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <string>
#include <algorithm>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1); } } while (0)

// ---- loads with an explicit cache operator -------------------------------------------
enum Mode { DEF = 0, CA, CG, CS, LU, NC, CV, NMODES };
static const char* modeName[] = {"def", "ca", "cg", "cs", "lu", "nc", "cv"};

__device__ __forceinline__ float ld(const float* p, int mode) {
  float v;
  switch (mode) {
  case CA: asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v) : "l"(p)); break;
  case CG: asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(v) : "l"(p)); break;
  case CS: asm volatile("ld.global.cs.f32 %0, [%1];" : "=f"(v) : "l"(p)); break;
  case LU: asm volatile("ld.global.lu.f32 %0, [%1];" : "=f"(v) : "l"(p)); break;
  case NC: asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(p)); break;
  case CV: asm volatile("ld.global.cv.f32 %0, [%1];" : "=f"(v) : "l"(p)); break;
  default: asm volatile("ld.global.f32 %0, [%1];" : "=f"(v) : "l"(p)); break;
  }
  return v;
}

// The data is all zero, so acc stays 0; the compiler cannot know, so each next
// address depends on the previous load's value (the fill has returned).
__device__ __forceinline__ int dep(float acc) { return acc == 12345.f ? 1 : 0; }

// reread: warps take turns (warp 0 first, then 1, ...); each does `rounds`
// dependent loads of the 32 floats p[0..31] (4 sectors of one line).
// concurrent=1: no turns, all warps load at once and rounds are independent.
__global__ void k_reread(const float* p, float* out, int mode, int rounds, int concurrent) {
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nw = blockDim.x >> 5;
  float acc = 0;
  if (concurrent) {
    float a = 0;
    for (int r = 0; r < rounds; r++) a += ld(p + lane, mode);
    acc = a;
  } else {
    for (int w = 0; w < nw; w++) {
      if (w == warp)
        for (int r = 0; r < rounds; r++) acc += ld(p + lane + dep(acc), mode);
      if (acc == 12345.f) out[threadIdx.x] = acc;  // consume before the barrier
      __syncthreads();
    }
  }
  if (acc == 12345.f) out[threadIdx.x] = acc;
}

// xblock: blocks take turns through a global counter (all are resident: 4 per SM of 32 threads);
// each loads p[0..31] once, records its SM. Gives up after ~2^28 cycles of waiting.
__global__ void k_xblock(const float* p, float* out, unsigned* turn, int* smid, int mode) {
  unsigned me = blockIdx.x;
  long long t0 = clock64();
  if (threadIdx.x == 0)
    while (atomicAdd(turn, 0) != me && clock64() - t0 < (1LL << 28)) {}
  __syncwarp();
  float v = ld(p + threadIdx.x, mode);
  if (v == 12345.f) out[threadIdx.x] = v;
  __syncwarp();
  if (threadIdx.x == 0) {
    int s; asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    smid[me] = s;
    __threadfence();
    atomicAdd(turn, 1);
  }
}

// sectors: one warp loads the 4 sectors of line 0 one after another (lanes 0-7 each time),
// each load dependent on the previous one.
__global__ void k_sectors(const float* p, float* out, int mode, int order) {
  int lane = threadIdx.x & 31;
  float acc = 0;
  const int seq[2][4] = {{0, 1, 2, 3}, {0, 2, 1, 3}};
  for (int i = 0; i < 4; i++) {
    if (lane < 8) acc += ld(p + seq[order][i] * 8 + lane + dep(acc), mode);
    acc = __shfl_sync(0xffffffff, acc, 0);
  }
  if (acc == 12345.f) out[threadIdx.x] = acc;
}

// writes: case 0 store then load; 1 load, store, load; 2 store by warp 0, load by warp 1;
// 3 store of lanes 0-7 (one sector, 4-byte each) then load of the whole line.
__global__ void k_writes(float* p, float* out, int which) {
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  float acc = 0;
  if (which == 0 || which == 3) {
    if (which == 0 || lane < 8) p[lane] = 0.f;
    __threadfence_block();
    acc += ld(p + lane, DEF);
  } else if (which == 1) {
    acc += ld(p + lane, DEF);
    p[lane + dep(acc)] = 0.f;
    __threadfence_block();
    acc += ld(p + lane + dep(acc), DEF);
  } else {
    if (warp == 0) p[lane] = 0.f;
    __threadfence_block();
    __syncthreads();
    if (warp == 1) acc += ld(p + lane, DEF);
  }
  if (acc == 12345.f) out[threadIdx.x] = acc;
}

// stream: grid-stride .cg loads over n floats, `passes` times; pass 2 is shifted by `shift`
// blocks so that it is read by other SMs than pass 1 when shift != 0.
__global__ void k_stream(const float* p, float* out, long n, int passes, int shift) {
  float acc = 0;
  long stride = (long)gridDim.x * blockDim.x;
  for (int ps = 0; ps < passes; ps++) {
    long b = (blockIdx.x + (ps ? shift : 0)) % gridDim.x;
    for (long i = b * blockDim.x + threadIdx.x; i < n; i += stride) acc += ld(p + i, CG);
  }
  if (acc == 12345.f) out[threadIdx.x] = acc;
}

// ---- atomics ------------------------------------------------------------------------
enum AOp { A_ADD = 0, A_RED, A_CAS, A_EXCH, A_FADD, A_NOPS };
static const char* aName[] = {"atomicAdd", "red.add", "atomicCAS", "atomicExch", "atomicAdd.f32"};

// Each thread does iters atomics on word (global thread index % nwords) * stride.
__global__ void k_gatom(unsigned* p, unsigned* sink, int op, int nwords, int stride, int iters) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned* a = p + (t % nwords) * stride;
  unsigned r = 0;
  for (int i = 0; i < iters; i++) {
    switch (op) {
    case A_ADD: r += atomicAdd(a, 1u); break;
    case A_RED: atomicAdd(a, 1u); break;
    case A_CAS: r += atomicCAS(a, r, r + 1); break;
    case A_EXCH: r += atomicExch(a, r + t); break;
    default: r += __float_as_uint(atomicAdd((float*)a, 1.0f)); break;
    }
  }
  if (r == 0xdeadbeef) sink[t] = r;
}

// The same in shared memory (per block).
__global__ void k_satom(unsigned* sink, int op, int nwords, int stride, int iters) {
  __shared__ unsigned s[32 * 33];
  for (int i = threadIdx.x; i < 32 * 33; i += blockDim.x) s[i] = 0;
  __syncthreads();
  unsigned* a = s + (threadIdx.x % nwords) * stride;
  unsigned r = 0;
  for (int i = 0; i < iters; i++) {
    switch (op) {
    case A_ADD: r += atomicAdd(a, 1u); break;
    case A_RED: atomicAdd(a, 1u); break;
    case A_CAS: r += atomicCAS(a, r, r + 1); break;
    case A_EXCH: r += atomicExch(a, r + threadIdx.x); break;
    default: r += __float_as_uint(atomicAdd((float*)a, 1.0f)); break;
    }
  }
  __syncthreads();
  if (r == 0xdeadbeef || s[threadIdx.x % 32] == 0xdeadbeef) sink[threadIdx.x] = r;
}

// Validation kernels (their cycles are compared with the model, not used to fit it).
// v_atom11: each thread does 11 atomicAdd on words (t + k) % 4 of one line.
__global__ void v_atom11(unsigned* p, unsigned* sink) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x, r = 0;
  for (int k = 0; k < 11; k++) r += atomicAdd(p + (t + k) % 4, 1u);
  if (r == 0xdeadbeef) sink[t] = r;
}
// v_counter: every thread of every block adds its value to one counter (result unused: RED).
__global__ void v_counter(unsigned* p) { atomicAdd(p, threadIdx.x + 1); }
// v_casloop: every thread increments one counter with a CAS loop.
__global__ void v_casloop(unsigned* p) {
  unsigned old = *(volatile unsigned*)p, assumed;
  do { assumed = old; old = atomicCAS(p, assumed, assumed + 1); } while (old != assumed);
}

// clock rate: SM cycles per globaltimer ns over a spin
__global__ void k_clock(long long* o) {
  long long g0, g1, c0 = clock64();
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g0));
  do { asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g1)); } while (g1 - g0 < 2000000);
  o[0] = clock64() - c0; o[1] = g1 - g0;
}

static FILE* labels;
static void label(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
#include <cstdarg>
static void label(const char* fmt, ...) {
  va_list ap; va_start(ap, fmt); vfprintf(labels, fmt, ap); va_end(ap); fputc('\n', labels); fflush(labels);
}

int main(int argc, char** argv) {
  if (argc < 3) { fprintf(stderr, "usage: micro ncu|time OUTDIR\n"); return 2; }
  std::string outdir = argv[2];
  const size_t big = 512ull << 20;  // 512 MB of zeros
  float* p; float* out; unsigned* u; unsigned* sink; int* smid; long long* clk;
  CK(cudaMalloc(&p, big)); CK(cudaMalloc(&out, 1 << 20)); CK(cudaMalloc(&u, 1 << 20));
  CK(cudaMalloc(&sink, 64 << 20)); CK(cudaMalloc(&smid, 4096 * 4)); CK(cudaMalloc(&clk, 16));
  {
    std::vector<char> z(64 << 20, 0);
    for (size_t o = 0; o < big; o += z.size()) CK(cudaMemcpy((char*)p + o, z.data(), z.size(), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(u, z.data(), 1 << 20, cudaMemcpyHostToDevice));
  }
  auto zero_u = [&]() { static std::vector<char> z(1 << 20, 0); CK(cudaMemcpy(u, z.data(), 1 << 20, cudaMemcpyHostToDevice)); };
  auto sync = [&](const char* what) {
    CK(cudaGetLastError());
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e)); exit(1); }
  };
  if (!strcmp(argv[1], "ncu")) {
    labels = fopen((outdir + "/micro_labels.txt").c_str(), "w");
    for (int m = 0; m < NMODES; m++) {
      label("reread mode=%s warps=1 rounds=2 sequential (same warp re-reads 4 sectors)", modeName[m]);
      k_reread<<<1, 32>>>(p, out, m, 2, 0); sync("reread");
    }
    for (int m : {DEF, CG, NC, CS}) {
      label("reread mode=%s warps=2 rounds=1 sequential (another warp of the block re-reads)", modeName[m]);
      k_reread<<<1, 64>>>(p, out, m, 1, 0); sync("reread2");
    }
    label("reread mode=def warps=8 rounds=1 concurrent (8 warps at once: hits on in-flight sectors?)");
    k_reread<<<1, 256>>>(p, out, DEF, 1, 1); sync("conc");
    label("reread mode=def warps=1 rounds=2 concurrent (two independent loads of one line back to back)");
    k_reread<<<1, 32>>>(p, out, DEF, 2, 1); sync("conc2");
    label("reread mode=cg warps=8 rounds=1 concurrent (8 warps at once at L2)");
    k_reread<<<1, 256>>>(p, out, CG, 1, 1); sync("conc3");
    int nsm = 0; CK(cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, 0));
    for (int m : {DEF, NC, CG}) {
      zero_u();
      int nb = 4 * nsm;
      k_xblock<<<nb, 32>>>(p, out, u, smid, m); sync("xblock");
      std::vector<int> s(nb); CK(cudaMemcpy(s.data(), smid, nb * 4, cudaMemcpyDeviceToHost));
      std::vector<int> ss = s; std::sort(ss.begin(), ss.end());
      int distinct = std::unique(ss.begin(), ss.end()) - ss.begin();
      label("xblock mode=%s blocks=%d distinct_sms=%d (blocks in turn each load 4 sectors of one line)", modeName[m], nb, distinct);
    }
    for (int m : {DEF, CG})
      for (int o : {0, 1}) {
        label("sectors mode=%s order=%s (one warp loads the 4 sectors of a line one by one, dependent)", modeName[m], o ? "0,2,1,3" : "0,1,2,3");
        k_sectors<<<1, 32>>>(p, out, m, o); sync("sectors");
      }
    const char* wn[] = {"store 4 sectors then load them (same warp)", "load, store, load (same warp)",
                        "warp 0 stores, warp 1 loads", "store 1 sector then load the line (same warp)"};
    for (int w = 0; w < 4; w++) {
      label("writes case=%d %s", w, wn[w]);
      k_writes<<<1, 64>>>(p, out, w); sync("writes");
    }
    for (int mb : {8, 16, 24, 32, 40, 48, 64, 96})
      for (int v = 0; v < 3; v++) {
        long n = (long)mb << 18;
        int passes = v ? 2 : 1, shift = v == 2 ? 4 * nsm - 1 : 0;
        label("stream MB=%d passes=%d shift=%d (grid %d x 256, ld.global.cg)", mb, passes, shift, 8 * nsm);
        k_stream<<<8 * nsm, 256>>>(p, out, n, passes, shift); sync("stream");
      }
    // validation kernels under ncu too (cycles)
    zero_u(); label("v_atom11 grid=%d block=256", nsm); v_atom11<<<nsm, 256>>>(u, sink); sync("v_atom11");
    zero_u(); label("v_atom11 grid=1 block=256"); v_atom11<<<1, 256>>>(u, sink); sync("v_atom11");
    zero_u(); label("v_counter grid=%d block=256", 8 * nsm); v_counter<<<8 * nsm, 256>>>(u); sync("v_counter");
    zero_u(); label("v_counter grid=1 block=1024"); v_counter<<<1, 1024>>>(u); sync("v_counter");
    zero_u(); label("v_casloop grid=%d block=64", nsm); v_casloop<<<nsm, 64>>>(u); sync("v_casloop");
    zero_u(); label("v_casloop grid=1 block=256"); v_casloop<<<1, 256>>>(u); sync("v_casloop");
    fclose(labels);
    return 0;
  }
  // ---- time: atomic throughput with events ----
  k_clock<<<1, 1>>>(clk); sync("clock");
  long long c[2]; CK(cudaMemcpy(c, clk, 16, cudaMemcpyDeviceToHost));
  double ghz = (double)c[0] / (double)c[1];
  printf("# SM clock %.4f GHz (clock64 %lld cycles over %lld ns of globaltimer)\n", ghz, c[0], c[1]);
  int nsm = 0; CK(cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, 0));
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  printf("space,op,grid,block,nwords,stride_words,iters,ops,best_ms,median_ms,ops_per_cycle,cycles_per_op,clock_ghz\n");
  auto timeit = [&](const char* space, int op, int grid, int block, int nw, int st, int iters) {
    std::vector<float> ms;
    for (int rep = 0; rep < 7; rep++) {
      zero_u();
      CK(cudaEventRecord(e0));
      if (space[0] == 'g') k_gatom<<<grid, block>>>(u, sink, op, nw, st, iters);
      else k_satom<<<grid, block>>>(sink, op, nw, st, iters);
      CK(cudaEventRecord(e1)); sync("atom");
      float t; CK(cudaEventElapsedTime(&t, e0, e1)); ms.push_back(t);
    }
    std::sort(ms.begin() + 1, ms.end());  // rep 0 is a warm-up
    double ops = (double)grid * block * iters;
    double best = ms[1], med = ms[4];
    double cyc = med * 1e-3 * ghz * 1e9;
    printf("%s,%s,%d,%d,%d,%d,%d,%.0f,%.4f,%.4f,%.4f,%.3f,%.4f\n", space, aName[op], grid, block, nw, st, iters, ops, best, med,
           ops / cyc, cyc / ops, ghz);
    fflush(stdout);
  };
  for (int op = 0; op < A_NOPS; op++) {
    timeit("global", op, 1, 32, 1, 1, 256);          // one warp, one address
    timeit("global", op, 1, 1024, 1, 1, 64);         // one block
    timeit("global", op, nsm, 1024, 1, 1, 16);       // all SMs, one address
    for (int nw : {2, 4, 8, 32}) timeit("global", op, nsm, 1024, nw, 1, 16);   // few words, one line
    for (int nw : {2, 4, 32}) timeit("global", op, nsm, 1024, nw, 32, 16);     // few words, one line each
    timeit("global", op, nsm, 1024, 1 << 18, 1, 16); // all distinct (throughput ceiling)
    timeit("shared", op, 1, 1024, 1, 1, 64);         // one block, one word
    timeit("shared", op, 1, 32, 1, 1, 256);          // one warp, one word
    for (int nw : {2, 32}) timeit("shared", op, 1, 1024, nw, 1, 64);   // distinct banks
    timeit("shared", op, 1, 1024, 32, 32, 64);       // 32 words, one bank
    timeit("shared", op, nsm, 1024, 1, 1, 64);       // every SM, one word each
  }
  return 0;
}
