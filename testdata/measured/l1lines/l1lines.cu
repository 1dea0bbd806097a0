// L1TEX cost of a global request by the lines and sectors it touches (issue 14):
// every load hits in L1 (a 16 x 32-line working set of at most 64 KB per block, read
// again and again), so the time is the L1's, not L2's or DRAM's. Pattern P of a
// warp request: lane l reads word (l % per) of line (l / per), per = 32 / K lines
// (K = 1..32), or "sec": 8 lines x 4 sectors, one lane per sector (32 sectors in 8
// lines: per-line vs per-sector cost). tput_*: 132 x 1024 threads, independent loads;
// lat_*: one warp, each load's address depends on the last (the data are zeros);
// st_*: the same patterns stored. Made by run.sh on the H200; ncu --clock-control none.
#include <cstdio>
#include <cstdlib>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

template <int K> __device__ __forceinline__ int word(int lane) {
  if (K == 0) return (lane / 4) * 32 + (lane % 4) * 8;  // "sec": 8 lines, 4 sectors each
  const int per = 32 / K;
  return (lane / per) * 32 + lane % per;
}

template <int K> __global__ void tput(const float* __restrict__ in, float* out, int iters) {
  const int w = word<K>(threadIdx.x & 31);
  float acc = 0.f;
  for (int it = 0; it < iters; it++) acc += in[(it & 15) * 1024 + w];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

template <int K> __global__ void lat(const float* __restrict__ in, float* out, int iters) {
  const int w = word<K>(threadIdx.x & 31);
  float v = 0.f;
  for (int it = 0; it < iters; it++) v = in[(it & 15) * 1024 + w + (int)v];
  out[threadIdx.x] = v;
}

template <int K> __global__ void st(float* out, int iters) {
  const int w = word<K>(threadIdx.x & 31);
  float* p = out + blockIdx.x * 16384;
  for (int it = 0; it < iters; it++) p[(it & 15) * 1024 + w] = (float)it;
}

template <int K> void runK(const float* in, float* out, float* big) {
  tput<K><<<132, 1024>>>(in, out, 256);
  lat<K><<<1, 32>>>(in, out, 256);
  st<K><<<132, 1024>>>(big, 256);
  CK(cudaDeviceSynchronize());
}

int main() {
  float *in, *out, *big;
  CK(cudaMalloc(&in, 16 * 1024 * 4 + 4096));
  CK(cudaMemset(in, 0, 16 * 1024 * 4 + 4096));
  CK(cudaMalloc(&out, 132 * 1024 * 4));
  CK(cudaMalloc(&big, 132 * 16384 * 4));
  // order of launches, as labels.txt lists them: per pattern tput, lat, st
  runK<1>(in, out, big); runK<2>(in, out, big); runK<4>(in, out, big); runK<8>(in, out, big);
  runK<16>(in, out, big); runK<32>(in, out, big); runK<0>(in, out, big);
  printf("ok\n");
  return 0;
}
