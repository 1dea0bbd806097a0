// Atomic-unit calibration microbenchmarks for the H200 (sm_90): the costs of
// mem.AtomicCosts (gpu/mem/atomic_timed.go). Run by scripts/atomics/device.sh:
//   atomics time   event-timed throughput cases: each case at two iteration counts,
//                  median of 7 launches (first dropped); cycles per op from the difference,
//                  so the launch overhead cancels
//   atomics ncu    the one-shot cases (reductions, one-pass histograms, CAS loops), each
//                  launched 3 times, for Nsight Compute
// Which rows calibrate and which validate: testdata/measured/atomics/README.md.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

// mix is the bin hash: thread t's k-th atomic goes to word mix(t, k) % K.
__device__ __forceinline__ unsigned mix(unsigned t, unsigned k) {
  unsigned h = t * 0x9E3779B1u + k * 0x85EBCA6Bu;
  h ^= h >> 15; h *= 0x2C1B3C6Du; h ^= h >> 12;
  return h;
}
// Histogram-like: iters atomics per thread on K words (K = 1: one word, but not
// provably uniform, so ptxas does not aggregate). red: result unused; atom: used.
extern "C" __global__ void h_red(unsigned* h, int K, int iters) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < iters; k++) atomicAdd(&h[mix(t, k) % K], 1u);
}
extern "C" __global__ void h_atom(unsigned* h, unsigned* sink, int K, int iters) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x, r = 0;
  for (int k = 0; k < iters; k++) r += atomicAdd(&h[mix(t, k) % K], 1u);
  if (r == 0xdeadbeef) sink[threadIdx.x] = r;
}
extern "C" __global__ void h_fred(float* h, int K, int iters) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < iters; k++) atomicAdd(&h[mix(t, k) % K], 1.0f);
}
extern "C" __global__ void h_fatom(float* h, float* sink, int K, int iters) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  float r = 0;
  for (int k = 0; k < iters; k++) r += atomicAdd(&h[mix(t, k) % K], 1.0f);
  if (r == -1.0f) sink[threadIdx.x] = r;
}
// CAS-increment loop on bin mix(t, 0) % K.
extern "C" __global__ void h_cas(unsigned* h, int K) {
  unsigned* p = &h[mix(blockIdx.x * blockDim.x + threadIdx.x, 0) % K];
  unsigned old = *(volatile unsigned*)p, assumed;
  do { assumed = old; old = atomicCAS(p, assumed, assumed + 1); } while (old != assumed);
}
// Few lanes to one word: lanes < `lanes` of each warp do iters atomics on h[zero * t]
// (zero is 0: one word, not provably uniform).
extern "C" __global__ void l_red(unsigned* h, int zero, int lanes, int iters) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if ((threadIdx.x & 31) >= lanes) return;
  for (int k = 0; k < iters; k++) atomicAdd(&h[zero * t], 1u);
}
extern "C" __global__ void l_atom(unsigned* h, unsigned* sink, int zero, int lanes, int iters) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x, r = 0;
  if ((threadIdx.x & 31) >= lanes) return;
  for (int k = 0; k < iters; k++) r += atomicAdd(&h[zero * t + (r & zero)], 1u);
  if (r == 0xdeadbeef) sink[threadIdx.x] = r;
}
extern "C" __global__ void l_fred(float* h, int zero, int lanes, int iters) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if ((threadIdx.x & 31) >= lanes) return;
  for (int k = 0; k < iters; k++) atomicAdd(&h[zero * t], 1.0f);
}
extern "C" __global__ void l_fatom(float* h, float* sink, int zero, int lanes, int iters) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  float r = 0;
  if ((threadIdx.x & 31) >= lanes) return;
  for (int k = 0; k < iters; k++) r += atomicAdd(&h[zero * t + ((int)r & zero)], 1.0f);
  if (r == -1.0f) sink[threadIdx.x] = r;
}
// Reductions' finish: one atomic per block (thread 0) or per warp (lane 0) on one word,
// after a load of the block's data, and the same kernel with a plain store instead.
extern "C" __global__ void r_none(const float* in, float* out, float* slot) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (threadIdx.x == 0) slot[blockIdx.x] = v;
}
extern "C" __global__ void r_fred(const float* in, float* out, float* slot) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (threadIdx.x == 0) atomicAdd(out, v);
}
extern "C" __global__ void r_ired(const float* in, unsigned* out, float* slot) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (threadIdx.x == 0) atomicAdd(out, (unsigned)v);
}
extern "C" __global__ void r_fatom(const float* in, float* out, float* slot) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (threadIdx.x == 0) slot[blockIdx.x] = atomicAdd(out, v);
}
extern "C" __global__ void r_fwarp(const float* in, float* out, float* slot) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if ((threadIdx.x & 31) == 0) atomicAdd(out, v);
}
__global__ void c_clock(long long* out) {
  long long c0 = clock64(); unsigned long long t0, t1;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do { asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1)); } while (t1 - t0 < 2000000);
  out[0] = clock64() - c0; out[1] = (long long)(t1 - t0);
}

// A throughput case: kernel, grid, block, K (words, or lanes for l_*), two iteration counts.
struct TCase { const char* kernel; int grid, block, k, it0, it1; };
static std::vector<TCase> tcases() {
  std::vector<TCase> v;
  const char* hk[] = {"h_red", "h_atom", "h_fred", "h_fatom"};
  int Ks[] = {1, 2, 4, 8, 16, 32, 64, 100, 128, 256, 512, 1024, 4096};
  for (const char* k : hk) for (int K : Ks) v.push_back({k, 132, 1024, K, 4, 12});
  const char* lk[] = {"l_red", "l_atom", "l_fred", "l_fatom"};
  int grids[] = {1, 8, 32, 132, 264};
  for (const char* k : lk) {
    for (int g : grids) v.push_back({k, g, 32, 1, 256, 768});
    for (int g : grids) v.push_back({k, g, 32, 32, g >= 32 ? 16 : 64, g >= 32 ? 48 : 192});
    int ls[] = {2, 4, 8, 16};
    for (int l : ls) v.push_back({k, 1, 32, l, 64, 192});
  }
  return v;
}
// A one-shot case for ncu: kernel, grid, block, K.
struct NCase { const char* kernel; int grid, block, k; };
static std::vector<NCase> ncases() {
  std::vector<NCase> v;
  const char* rk[] = {"r_none", "r_fred", "r_ired", "r_fatom", "r_fwarp"};
  int grids[] = {1, 8, 32, 64, 132, 256, 1024, 4096};
  for (const char* k : rk) for (int g : grids) v.push_back({k, g, 256, 0});
  const char* hk[] = {"h_red", "h_atom", "h_fred"};
  int Ks[] = {1, 32, 100, 1024, 4096};
  for (const char* k : hk) for (int K : Ks) v.push_back({k, 256, 256, K});
  int cK[] = {1, 4, 32, 100, 1024};
  for (int K : cK) v.push_back({"h_cas", 132, 64, K});
  return v;
}

static void launchT(const TCase& c, int iters, void* p, void* sink) {
  const char* k = c.kernel;
  if (!strcmp(k, "h_red")) h_red<<<c.grid, c.block>>>((unsigned*)p, c.k, iters);
  else if (!strcmp(k, "h_atom")) h_atom<<<c.grid, c.block>>>((unsigned*)p, (unsigned*)sink, c.k, iters);
  else if (!strcmp(k, "h_fred")) h_fred<<<c.grid, c.block>>>((float*)p, c.k, iters);
  else if (!strcmp(k, "h_fatom")) h_fatom<<<c.grid, c.block>>>((float*)p, (float*)sink, c.k, iters);
  else if (!strcmp(k, "l_red")) l_red<<<c.grid, c.block>>>((unsigned*)p, 0, c.k, iters);
  else if (!strcmp(k, "l_atom")) l_atom<<<c.grid, c.block>>>((unsigned*)p, (unsigned*)sink, 0, c.k, iters);
  else if (!strcmp(k, "l_fred")) l_fred<<<c.grid, c.block>>>((float*)p, 0, c.k, iters);
  else l_fatom<<<c.grid, c.block>>>((float*)p, (float*)sink, 0, c.k, iters);
}
static void launchN(const NCase& c, void* in, void* p, void* sink) {
  const char* k = c.kernel;
  if (!strcmp(k, "r_none")) r_none<<<c.grid, c.block>>>((float*)in, (float*)p, (float*)sink);
  else if (!strcmp(k, "r_fred")) r_fred<<<c.grid, c.block>>>((float*)in, (float*)p, (float*)sink);
  else if (!strcmp(k, "r_ired")) r_ired<<<c.grid, c.block>>>((float*)in, (unsigned*)p, (float*)sink);
  else if (!strcmp(k, "r_fatom")) r_fatom<<<c.grid, c.block>>>((float*)in, (float*)p, (float*)sink);
  else if (!strcmp(k, "r_fwarp")) r_fwarp<<<c.grid, c.block>>>((float*)in, (float*)p, (float*)sink);
  else if (!strcmp(k, "h_red")) h_red<<<c.grid, c.block>>>((unsigned*)p, c.k, 1);
  else if (!strcmp(k, "h_atom")) h_atom<<<c.grid, c.block>>>((unsigned*)p, (unsigned*)sink, c.k, 1);
  else if (!strcmp(k, "h_fred")) h_fred<<<c.grid, c.block>>>((float*)p, c.k, 1);
  else h_cas<<<c.grid, c.block>>>((unsigned*)p, c.k);
}

int main(int argc, char** argv) {
  bool timing = argc > 1 && !strcmp(argv[1], "time");
  void *p, *sink, *in;
  CK(cudaMalloc(&p, 1 << 16)); CK(cudaMalloc(&sink, 1 << 20)); CK(cudaMalloc(&in, 4096 * 256 * 4));
  CK(cudaMemset(in, 0, 4096 * 256 * 4));
  if (timing) {
    long long* ck; CK(cudaMalloc(&ck, 16));
    c_clock<<<1, 1>>>(ck); long long h[2]; CK(cudaMemcpy(h, ck, 16, cudaMemcpyDeviceToHost));
    double ghz = (double)h[0] / (double)h[1];
    printf("# SM clock %.4f GHz (clock64 %lld cycles over %lld ns of globaltimer)\n", ghz, h[0], h[1]);
    printf("kernel,grid,block,k,iters0,iters1,median_us0,median_us1,ops_per_iter,cycles_per_op,ops_per_cycle,clock_ghz\n");
    cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
    for (const TCase& c : tcases()) {
      double med[2];
      for (int i = 0; i < 2; i++) {
        int iters = i ? c.it1 : c.it0;
        std::vector<float> t;
        for (int rep = 0; rep < 8; rep++) {
          CK(cudaMemset(p, 0, 1 << 16));
          CK(cudaEventRecord(a)); launchT(c, iters, p, sink); CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b));
          CK(cudaGetLastError());
          float ms; CK(cudaEventElapsedTime(&ms, a, b));
          if (rep > 0) t.push_back(ms * 1000);
        }
        std::sort(t.begin(), t.end());
        med[i] = t[t.size() / 2];
      }
      long long lanes = c.kernel[0] == 'l' ? (long long)c.grid * (c.block / 32) * c.k : (long long)c.grid * c.block;
      double ops = (double)lanes * (c.it1 - c.it0);
      double cyc = (med[1] - med[0]) * 1e3 * ghz;
      printf("%s,%d,%d,%d,%d,%d,%.2f,%.2f,%lld,%.4f,%.4f,%.4f\n", c.kernel, c.grid, c.block, c.k, c.it0, c.it1, med[0], med[1], lanes, cyc / ops, ops / cyc, ghz);
    }
  } else {
    for (const NCase& c : ncases()) {
      for (int rep = 0; rep < 3; rep++) {
        CK(cudaMemset(p, 0, 1 << 16));
        launchN(c, in, p, sink); CK(cudaDeviceSynchronize());
        printf("%s grid=%d block=%d k=%d rep=%d\n", c.kernel, c.grid, c.block, c.k, rep);
      }
    }
  }
  return 0;
}
