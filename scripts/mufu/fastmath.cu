// fastmath.cu: the CUDA math functions KernelScope's prelude implements, as
// nvcc compiles them (built twice: with and without -use_fast_math), run on
// inputs made by fmInput (the same formula is in gpu/arith's tests).
// Usage: ./fastmath OUT.bin  -> 11 functions x N f32 outputs, function-major.
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <vector>
#define N 16384
static uint64_t mix64(uint64_t z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
// fmInput: input i of stream s: sign random, exponent uniform in [2^-24, 2^24)
// (biased 103..150), mantissa random; the first 16 of each stream are specials.
static uint32_t fmInput(int s, uint32_t i) {
  static const uint32_t sp[16] = {0, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 1, 0x807fffffu, 0x00800000u,
                                  0x3f800000u, 0xbf800000u, 0x7f7fffffu, 0x42b17218u, 0xc2aeac50u, 0x3f000000u, 0x40490fdbu, 0x4b800000u};
  if (i < 16) return sp[i];
  uint64_t u = mix64((uint64_t)s << 32 | i);
  uint32_t e = 103 + (uint32_t)((u >> 32) % 48);
  return (uint32_t)(u >> 63) << 31 | e << 23 | (uint32_t)(u & 0x7fffff);
}
__global__ void fm(const float *x, const float *y, float *o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  float a = x[i], b = y[i];
  o[0 * N + i] = __expf(a);
  o[1 * N + i] = __logf(a);
  o[2 * N + i] = __sinf(a);
  o[3 * N + i] = __cosf(a);
  o[4 * N + i] = __fdividef(a, b);
  o[5 * N + i] = __frsqrt_rn(a);
  o[6 * N + i] = rsqrtf(a);
  o[7 * N + i] = tanhf(a);
  o[8 * N + i] = erff(a);
  o[9 * N + i] = expf(a);
  o[10 * N + i] = logf(a);
}
int main(int argc, char **argv) {
  std::vector<uint32_t> hx(N), hy(N);
  for (uint32_t i = 0; i < N; i++) { hx[i] = fmInput(0, i); hy[i] = fmInput(1, i); }
  float *x, *y, *o;
  cudaMalloc(&x, N * 4); cudaMalloc(&y, N * 4); cudaMalloc(&o, 11 * N * 4);
  cudaMemcpy(x, hx.data(), N * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(y, hy.data(), N * 4, cudaMemcpyHostToDevice);
  fm<<<N / 256, 256>>>(x, y, o);
  std::vector<float> ho(11 * N);
  if (cudaMemcpy(ho.data(), o, 11 * N * 4, cudaMemcpyDeviceToHost) != cudaSuccess) { fprintf(stderr, "cuda error\n"); return 1; }
  FILE *f = fopen(argv[1], "wb"); fwrite(ho.data(), 4, ho.size(), f); fclose(f);
  return 0;
}
