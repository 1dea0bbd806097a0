// Alignment probe for the L2 atomic servers' address hash (scripts/atomics/device.sh runs it as
// `offsets`): histogram throughput (as atomics.cu's h_red) with the bins starting at byte offsets
// of a 2 MB-aligned buffer, and at the address a real-code harness gets (cudaMalloc(262144) then
// cudaMalloc(400)). Event-timed, two iteration counts, median of 7 (first dropped).
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <algorithm>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

__device__ __forceinline__ unsigned mix(unsigned t, unsigned k) {
  unsigned h = t * 0x9E3779B1u + k * 0x85EBCA6Bu;
  h ^= h >> 15; h *= 0x2C1B3C6Du; h ^= h >> 12;
  return h;
}
extern "C" __global__ void h_red(unsigned* h, int K, int iters) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < iters; k++) atomicAdd(&h[mix(t, k) % K], 1u);
}

static double timeIt(unsigned* p, int K, int grid, int block, int iters) {
  cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
  std::vector<float> t;
  for (int rep = 0; rep < 8; rep++) {
    CK(cudaEventRecord(a)); h_red<<<grid, block>>>(p, K, iters); CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b));
    float ms; CK(cudaEventElapsedTime(&ms, a, b)); if (rep) t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2] * 1e3;
}

int main(int argc, char** argv) {
  bool ncu = argc > 1 && !strcmp(argv[1], "ncu");
  unsigned *big, *ra, *ry;
  CK(cudaMalloc(&big, 8 << 20));
  unsigned* base = (unsigned*)(((uintptr_t)big + (2 << 20) - 1) & ~(uintptr_t)((2 << 20) - 1));
  CK(cudaMalloc(&ra, 262144)); CK(cudaMalloc(&ry, 400));
  CK(cudaMemset(big, 0, 8 << 20)); CK(cudaMemset(ry, 0, 400));
  if (ncu) {  // one-shot, as lc_histogram_i32: 256 x 256 threads, 100 bins
    h_red<<<256, 256>>>(base, 100, 1); CK(cudaDeviceSynchronize());
    h_red<<<256, 256>>>(ry, 100, 1); CK(cudaDeviceSynchronize());
    h_red<<<256, 256>>>(base + 14, 100, 1); CK(cudaDeviceSynchronize());
    printf("one-shot h_red 256x256 K=100 at base, at the harness's y, at base+56 B\n");
    return 0;
  }
  printf("# harness-like allocations: a at %p (mod 2 MB 0x%lx), y at %p (mod 2 MB 0x%lx); aligned base %p\n",
         ra, (unsigned long)((uintptr_t)ra & ((2 << 20) - 1)), ry, (unsigned long)((uintptr_t)ry & ((2 << 20) - 1)), base);
  printf("K,offset_bytes,cycles_per_op_event,us_lo,us_hi\n");
  int Ks[] = {64, 100, 256, 1024};
  int offs[] = {0, 56, 128, 256, 512, 768, 1024, 2048, 4096, 65536};
  for (int K : Ks) for (int o : offs) {
    unsigned* p = base + o / 4;
    double lo = timeIt(p, K, 132, 1024, 4), hi = timeIt(p, K, 132, 1024, 12);
    printf("%d,%d,%.4f,%.2f,%.2f\n", K, o, (hi - lo) * 1.98e3 / (132.0 * 1024 * 8), lo, hi);
  }
  for (int K : Ks) {
    double lo = timeIt(ry, K > 100 ? 100 : K, 132, 1024, 4), hi = timeIt(ry, K > 100 ? 100 : K, 132, 1024, 12);
    printf("%d,harness_y,%.4f,%.2f,%.2f\n", K > 100 ? 100 : K, (hi - lo) * 1.98e3 / (132.0 * 1024 * 8), lo, hi);
    if (K >= 100) break;
  }
  return 0;
}
