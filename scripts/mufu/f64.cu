// f64.cu: rsqrt.approx.f64, rsqrt.approx.ftz.f64 and rcp.approx.ftz.f64 on the H200
// (issue 18). Writes to DIR:
//   f64_stats.txt  per form and per high-word bucket (hi >> 20: sign, exponent), with
//                  the low word 0: sum mod 2^64 of mix64(hi<<32 ^ mix64(out)) over 2^20 inputs;
//                  and, per form, how many of 2^32 inputs change their output when the
//                  low word is mix64(hi) instead of 0.
//   f64_bin_<form>.bin  the 64-bit outputs for hi in [0x3ff00000, 0x40100000) (x in [1, 4)), lo = 0.
//   f64_rand.bin   2^18 (x, rsqrt.approx.f64(x)) pairs, x random in [1, 4) with random low words,
//                  then 2^16 with random exponents in [2^-1000, 2^1000).
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <vector>
__host__ __device__ static inline uint64_t mix64(uint64_t z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
__device__ __forceinline__ double op(int f, double x) {
  double r;
  if (f == 0) asm("rsqrt.approx.f64 %0, %1;" : "=d"(r) : "d"(x));
  else if (f == 1) asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(x));
  else asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(x));
  return r;
}
__global__ void sweep(int f, uint64_t base, unsigned long long *hash, unsigned long long *diff) {
  uint64_t hi = base + (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  double x0 = __longlong_as_double((long long)(hi << 32));
  double x1 = __longlong_as_double((long long)((hi << 32) | (mix64(hi) & 0xffffffffull)));
  uint64_t o0 = (uint64_t)__double_as_longlong(op(f, x0));
  uint64_t o1 = (uint64_t)__double_as_longlong(op(f, x1));
  bool nan0 = (o0 & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
  bool nan1 = (o1 & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
  unsigned long long h = mix64((hi << 32) ^ mix64(o0));
  unsigned d = (o0 != o1 && !(nan0 && nan1)) ? 1 : 0;
  // warp reduce
  for (int s = 16; s > 0; s >>= 1) { h += __shfl_down_sync(0xffffffff, h, s); d += __shfl_down_sync(0xffffffff, d, s); }
  __shared__ unsigned long long sh[8];
  __shared__ unsigned sd[8];
  if ((threadIdx.x & 31) == 0) { sh[threadIdx.x >> 5] = h; sd[threadIdx.x >> 5] = d; }
  __syncthreads();
  if (threadIdx.x == 0) {  // a block (256 inputs) lies in one bucket of 2^20
    for (int w = 1; w < 8; w++) { h += sh[w]; d += sd[w]; }
    atomicAdd(&hash[hi >> 20], h);
    if (d) atomicAdd(diff, (unsigned long long)d);
  }
}
__global__ void dump(int f, uint64_t base, uint64_t *out) {
  uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = (uint64_t)__double_as_longlong(op(f, __longlong_as_double((long long)((base + i) << 32))));
}
__global__ void rnd(uint64_t *io, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) io[2 * i + 1] = (uint64_t)__double_as_longlong(op(0, __longlong_as_double((long long)io[2 * i])));
}
int main(int argc, char **argv) {
  const char *dir = argv[1];
  char p[512];
  unsigned long long *hash, *diff;
  cudaMalloc(&hash, 4096 * 8); cudaMalloc(&diff, 8);
  snprintf(p, sizeof p, "%s/f64_stats.txt", dir);
  FILE *fs = fopen(p, "w");
  const char *names[3] = {"rsqrt.approx.f64", "rsqrt.approx.ftz.f64", "rcp.approx.ftz.f64"};
  std::vector<unsigned long long> h(4096);
  for (int f = 0; f < 3; f++) {
    cudaMemset(hash, 0, 4096 * 8); cudaMemset(diff, 0, 8);
    for (uint64_t b = 0; b < (1ull << 32); b += 1ull << 28) sweep<<<(1 << 28) / 256, 256>>>(f, b, hash, diff);
    unsigned long long d;
    cudaMemcpy(h.data(), hash, 4096 * 8, cudaMemcpyDeviceToHost);
    cudaMemcpy(&d, diff, 8, cudaMemcpyDeviceToHost);
    fprintf(fs, "# %s lowword_changes %llu\n", names[f], d);
    for (int b = 0; b < 4096; b++) fprintf(fs, "%s %03x %016llx\n", names[f], b, h[b]);
    uint64_t *o; size_t n = 0x40100000 - 0x3ff00000;
    cudaMalloc(&o, n * 8);
    dump<<<n / 256, 256>>>(f, 0x3ff00000, o);
    std::vector<uint64_t> ho(n);
    cudaMemcpy(ho.data(), o, n * 8, cudaMemcpyDeviceToHost);
    cudaFree(o);
    snprintf(p, sizeof p, "%s/f64_bin_%d.bin", dir, f);
    FILE *fb = fopen(p, "wb"); fwrite(ho.data(), 8, n, fb); fclose(fb);
  }
  fclose(fs);
  int n1 = 1 << 18, n2 = 1 << 16, n = n1 + n2;
  std::vector<uint64_t> io(2 * n);
  for (int i = 0; i < n; i++) {
    uint64_t u = mix64(0x5eed0000ull + i);
    uint64_t e = i < n1 ? 1023 + (u >> 63) : 23 + (mix64(u) % 2000);
    io[2 * i] = e << 52 | (u & 0xfffffffffffffull);
  }
  uint64_t *d_io; cudaMalloc(&d_io, 16 * (size_t)n);
  cudaMemcpy(d_io, io.data(), 16 * (size_t)n, cudaMemcpyHostToDevice);
  rnd<<<(n + 255) / 256, 256>>>(d_io, n);
  cudaMemcpy(io.data(), d_io, 16 * (size_t)n, cudaMemcpyDeviceToHost);
  snprintf(p, sizeof p, "%s/f64_rand.bin", dir);
  FILE *fr = fopen(p, "wb"); fwrite(io.data(), 16, n, fr); fclose(fr);
  cudaError_t err = cudaDeviceSynchronize();
  printf("done: %s\n", cudaGetErrorString(err));
  return err != cudaSuccess;
}
