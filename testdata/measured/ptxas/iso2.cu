// Second set of isolating kernels (gpu/ptxas calibration, SASS listings only, no ncu):
// predication of small regions holding global memory, and when ptxas unrolls a loop again.
#include <cuda_runtime.h>
// a reduction step: a small region with two global loads and a store under a tid test, in a loop
extern "C" __global__ void iso2_reduce_gmem(int* g, unsigned n) {
  int* b = g + blockIdx.x * blockDim.x;
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) b[threadIdx.x] += b[threadIdx.x + s];
    __syncthreads();
  }
}
// the same on shared memory
extern "C" __global__ void iso2_reduce_smem(int* g) {
  __shared__ int sm[256];
  sm[threadIdx.x] = g[threadIdx.x];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) sm[threadIdx.x] += sm[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) g[blockIdx.x] = sm[0];
}
// a small region with one global load (no loop)
extern "C" __global__ void iso2_guarded_load(float* out, const float* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 0;
  if (i < n) v = a[i];
  out[i] = v * 2.0f;
}
// naive dot product over a runtime length: affine addresses, rolled in the source
extern "C" __global__ void iso2_dot_affine(float* out, const float* a, const float* b, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
  for (int k = 0; k < n; ++k) acc += a[r * n + k] * b[k * 64 + (r & 63)];
  out[r] = acc;
}
// the same with a pointer increment
extern "C" __global__ void iso2_sum_stride(float* out, const float* a, int n, int stride) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
  const float* p = a + r;
  for (int k = 0; k < n; ++k) { acc += *p; p += stride; }
  out[r] = acc;
}
// a loop without memory accesses
extern "C" __global__ void iso2_loop_alu(float* out, int n) {
  float x = threadIdx.x;
  for (int k = 0; k < n; ++k) x = x * 1.0001f + 0.5f;
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}
// a grid-stride loop with a shared atomic (as histogram256)
extern "C" __global__ void iso2_gridstride_atom(const unsigned char* d, unsigned* bins, int n) {
  __shared__ unsigned h[256];
  h[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) atomicAdd(&h[d[i]], 1u);
  __syncthreads();
  atomicAdd(&bins[threadIdx.x], h[threadIdx.x]);
}
