// Start-up and drain costs of small launches (docs/timing.md, "Kernel-only error"):
// kernels that do one thing each, launched at a few grids under Nsight Compute
// (sm__cycles_elapsed.max, caches flushed as for the golden set). Run by
// scripts/startup/device.sh; which rows calibrate what: testdata/timing_startup/README.md.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

extern "C" __global__ void s_empty() {}
extern "C" __global__ void s_param(unsigned* out, unsigned v) { out[blockIdx.x * blockDim.x + threadIdx.x] = v; }
extern "C" __global__ void s_copy(const unsigned* in, unsigned* out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x; out[i] = in[i];
}
extern "C" __global__ void s_add2(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x; out[i] = a[i] + b[i];
}
extern "C" __global__ void s_chain(const unsigned* in, unsigned* out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x; out[i] = in[in[i] & 1023u];
}
extern "C" __global__ void s_load(const unsigned* in, unsigned* out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x, v = in[i];
  if (v == 0xdeadbeefu) out[i] = v;
}
extern "C" __global__ void s_alu(unsigned* out, float x, int n) {
  float a = x + threadIdx.x, b = 1.0001f;
  for (int k = 0; k < n; k++) a = a * b + 0.5f;
  out[blockIdx.x * blockDim.x + threadIdx.x] = (unsigned)a;
}

struct Case { const char* k; int grid, block; };
static const Case cases[] = {
  {"s_empty", 1, 32}, {"s_empty", 132, 256}, {"s_empty", 1056, 256},
  {"s_param", 1, 32}, {"s_param", 132, 256}, {"s_param", 1056, 256},
  {"s_copy", 1, 32}, {"s_copy", 132, 256}, {"s_copy", 1056, 256},
  {"s_add2", 1, 32}, {"s_add2", 132, 256}, {"s_add2", 1056, 256},
  {"s_chain", 1, 32}, {"s_chain", 132, 256}, {"s_chain", 1056, 256},
  {"s_load", 1, 32}, {"s_load", 132, 256}, {"s_load", 1056, 256},
  {"s_alu", 1, 32}, {"s_alu", 132, 256}, {"s_alu", 1056, 256},
};

int main() {
  const size_t n = 1056 * 256;
  unsigned *a, *b, *o;
  CK(cudaMalloc(&a, n * 4)); CK(cudaMalloc(&b, n * 4)); CK(cudaMalloc(&o, n * 4));
  CK(cudaMemset(a, 0, n * 4)); CK(cudaMemset(b, 0, n * 4)); CK(cudaMemset(o, 0, n * 4));
  for (const Case& c : cases) {
    dim3 g(c.grid), t(c.block);
    if (!strcmp(c.k, "s_empty")) s_empty<<<g, t>>>();
    else if (!strcmp(c.k, "s_param")) s_param<<<g, t>>>(o, 7u);
    else if (!strcmp(c.k, "s_copy")) s_copy<<<g, t>>>(a, o);
    else if (!strcmp(c.k, "s_add2")) s_add2<<<g, t>>>(a, b, o);
    else if (!strcmp(c.k, "s_chain")) s_chain<<<g, t>>>(a, o);
    else if (!strcmp(c.k, "s_load")) s_load<<<g, t>>>(a, o);
    else s_alu<<<g, t>>>(o, 1.0f, 256);
    CK(cudaDeviceSynchronize()); CK(cudaGetLastError());
    printf("%s grid=%d block=%d\n", c.k, c.grid, c.block);
  }
  return 0;
}
