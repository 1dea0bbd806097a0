// libm.cu: the CUDA Math API float functions as nvcc compiles them, one kernel
// each, run on the inputs of in_x.bin / in_y.bin (made by inputs.py): NF
// functions x NIN f32 inputs, function-major. Usage: ./libm in_x in_y out.
// Built three times by run.sh (default flags, -use_fast_math, -ftz=true).
#include <cstdio>
#include <cstdlib>
#include <vector>
#define NIN 10240
#define F1(name) __global__ void k_##name(const float *x, const float *y, float *o) { \
  int i = blockIdx.x * blockDim.x + threadIdx.x; o[i] = name(x[i]); }
#define F2(name) __global__ void k_##name(const float *x, const float *y, float *o) { \
  int i = blockIdx.x * blockDim.x + threadIdx.x; o[i] = name(x[i], y[i]); }
#include "funcs.h"
#undef F1
#undef F2
typedef void (*kfn)(const float *, const float *, float *);
#define F1(name) k_##name,
#define F2(name) k_##name,
static kfn kernels[] = {
#include "funcs.h"
};
int main(int argc, char **argv) {
  int nf = sizeof(kernels) / sizeof(kernels[0]);
  size_t n = (size_t)nf * NIN;
  std::vector<float> hx(n), hy(n), ho(n);
  FILE *f = fopen(argv[1], "rb"); if (!f || fread(hx.data(), 4, n, f) != n) { fprintf(stderr, "read x\n"); return 1; } fclose(f);
  f = fopen(argv[2], "rb"); if (!f || fread(hy.data(), 4, n, f) != n) { fprintf(stderr, "read y\n"); return 1; } fclose(f);
  float *x, *y, *o;
  cudaMalloc(&x, n * 4); cudaMalloc(&y, n * 4); cudaMalloc(&o, n * 4);
  cudaMemcpy(x, hx.data(), n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(y, hy.data(), n * 4, cudaMemcpyHostToDevice);
  for (int k = 0; k < nf; k++) kernels[k]<<<NIN / 256, 256>>>(x + k * NIN, y + k * NIN, o + k * NIN);
  if (cudaMemcpy(ho.data(), o, n * 4, cudaMemcpyDeviceToHost) != cudaSuccess) { fprintf(stderr, "cuda error\n"); return 1; }
  f = fopen(argv[3], "wb"); fwrite(ho.data(), 4, n, f); fclose(f);
  printf("%d functions x %d inputs\n", nf, NIN);
  return 0;
}
