// tanhcheck.cu: the H200's tanh.approx.f32 against gpu/arith's model
// (model.h, table from tab.sh) on all 2^32 inputs, and tanh.approx.f16,
// .bf16 (all 65536) and .f16x2, .bf16x2 (all 2^32 pairs) against the model's
// f32 result truncated to 16 bits. Prints per bucket (input bits >> 23) the
// device checksum of the outputs (sum of mix64(in << 32 | out), as
// scripts/mufu/mufu.cu) and how many outputs differ from the model, then the
// 16-bit counts and the first differing inputs.
// Build (run5.sh, tab.h beside it): nvcc -O3 -arch=sm_90 -o tanhcheck tanhcheck.cu
#define HD __host__ __device__
#define TANH_MEM __device__
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdint>
#include "tab.h"
#include "model.h"

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

__device__ unsigned long long d_hash[512], d_bad[512], d_bad16[4];
__device__ unsigned d_nex, d_ex[64][3];
__device__ unsigned short d_model16[2][65536];

__device__ unsigned long long mix64(unsigned long long z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

__device__ unsigned long long warpSum(unsigned long long v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

// kf32: each thread 256 consecutive inputs from base; a warp's 8192 inputs
// lie in one bucket.
__global__ void kf32(unsigned long long base) {
  unsigned long long t = base + (blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x) * 256;
  unsigned long long h = 0, bad = 0;
  for (unsigned k = 0; k < 256; k++) {
    unsigned x = (unsigned)(t + k);
    float r;
    asm volatile("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(__uint_as_float(x)));
    unsigned o = __float_as_uint(r), m = tanh_model(x);
    h += mix64((unsigned long long)x << 32 | o);
    if (o != m) {
      bad++;
      unsigned i = atomicAdd(&d_nex, 1);
      if (i < 64) { d_ex[i][0] = x; d_ex[i][1] = o; d_ex[i][2] = m; }
    }
  }
  h = warpSum(h);
  bad = warpSum(bad);
  if ((threadIdx.x & 31) == 0) {
    unsigned b = (unsigned)(t >> 23);
    atomicAdd(&d_hash[b], h);
    atomicAdd(&d_bad[b], bad);
  }
}

__device__ bool nan16(unsigned v, int bf) { return (v & 0x7fff) > (bf ? 0x7f80u : 0x7c00u); }
__device__ bool same16(unsigned a, unsigned b, int bf) { return a == b || (nan16(a, bf) && nan16(b, bf)); }

// k16: the scalar 16-bit forms on every input, and the model's table for kx2.
__global__ void k16() {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 65536) return;
  unsigned short h = (unsigned short)i, rh, rb;
  asm volatile("tanh.approx.f16 %0, %1;" : "=h"(rh) : "h"(h));
  asm volatile("tanh.approx.bf16 %0, %1;" : "=h"(rb) : "h"(h));
  unsigned wf = widen16(h);
  unsigned short mh = trunc16(tanh_model(wf), 0), mb = trunc16(tanh_model((unsigned)i << 16), 1);
  d_model16[0][i] = mh;
  d_model16[1][i] = mb;
  if (!same16(rh, mh, 0)) atomicAdd(&d_bad16[0], 1ull);
  if (!same16(rb, mb, 1)) atomicAdd(&d_bad16[1], 1ull);
}

// kx2: the x2 forms on 256 consecutive pairs per thread from base.
__global__ void kx2(unsigned long long base) {
  unsigned long long t = base + (blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x) * 256;
  unsigned long long bh = 0, bb = 0;
  for (unsigned k = 0; k < 256; k++) {
    unsigned a = (unsigned)(t + k), rh, rb;
    asm volatile("tanh.approx.f16x2 %0, %1;" : "=r"(rh) : "r"(a));
    asm volatile("tanh.approx.bf16x2 %0, %1;" : "=r"(rb) : "r"(a));
    bh += !same16(rh & 0xffff, d_model16[0][a & 0xffff], 0) + !same16(rh >> 16, d_model16[0][a >> 16], 0);
    bb += !same16(rb & 0xffff, d_model16[1][a & 0xffff], 1) + !same16(rb >> 16, d_model16[1][a >> 16], 1);
  }
  bh = warpSum(bh);
  bb = warpSum(bb);
  if ((threadIdx.x & 31) == 0) {
    atomicAdd(&d_bad16[2], bh);
    atomicAdd(&d_bad16[3], bb);
  }
}

int main() {
  const unsigned long long N = 1ull << 32, CH = 1ull << 30;
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  cudaEventRecord(e0);
  for (unsigned long long b = 0; b < N; b += CH) kf32<<<CH / 256 / 256, 256>>>(b);
  k16<<<256, 256>>>();
  CK(cudaDeviceSynchronize());
  for (unsigned long long b = 0; b < N; b += CH) kx2<<<CH / 256 / 256, 256>>>(b);
  CK(cudaDeviceSynchronize());
  cudaEventRecord(e1);
  cudaEventSynchronize(e1);
  float ms;
  cudaEventElapsedTime(&ms, e0, e1);
  unsigned long long hash[512], bad[512], bad16[4];
  unsigned nex, ex[64][3];
  CK(cudaMemcpyFromSymbol(hash, d_hash, sizeof hash));
  CK(cudaMemcpyFromSymbol(bad, d_bad, sizeof bad));
  CK(cudaMemcpyFromSymbol(bad16, d_bad16, sizeof bad16));
  CK(cudaMemcpyFromSymbol(&nex, d_nex, sizeof nex));
  CK(cudaMemcpyFromSymbol(ex, d_ex, sizeof ex));
  unsigned long long tot = 0;
  printf("# tanh.approx.f32 on all 2^32 inputs against gpu/arith's model (%.0f ms)\n# bucket hash differing\n", ms);
  for (int b = 0; b < 512; b++) {
    printf("%d %016llx %llu\n", b, hash[b], bad[b]);
    tot += bad[b];
  }
  printf("# f32 outputs differing from the model: %llu of 4294967296\n", tot);
  printf("# tanh.approx.f16: %llu of 65536 differ; tanh.approx.bf16: %llu of 65536\n", bad16[0], bad16[1]);
  printf("# tanh.approx.f16x2: %llu of 2^33 lanes differ; tanh.approx.bf16x2: %llu of 2^33\n", bad16[2], bad16[3]);
  for (unsigned i = 0; i < nex && i < 64; i++) printf("# differs: x %08x H200 %08x model %08x\n", ex[i][0], ex[i][1], ex[i][2]);
  return 0;
}
