// KernelScope gpu/ptxas, wave 5 (issue 20): held-out kernels. Each checks on the H200 a rule that
// was read off a real-code (validation) listing, on code of our own that the rule was not fitted to.
#include <cuda_runtime.h>
// a grid-stride loop with three guarded loads per trip and three accumulators
// (rules: a pointer parameter used only in predicated regions is loaded again in each;
// zeroed defaults and accumulators pair into CS2R; from lcp_reduction_*)
extern "C" __global__ void iso4_loop_guard3(float* out, const float* a, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x, st = gridDim.x * blockDim.x;
  float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f;
  for (; i < n; i += 3 * st) {
    s0 += i < n ? a[i] : 0.0f;
    s1 += i + st < n ? a[i + st] : 0.0f;
    s2 += i + 2 * st < n ? a[i + 2 * st] : 0.0f;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = s0 + s1 + s2;
}
// a guarded product of two loads whose value goes to shuffles (rule: predicated; lc_dot_prod_f32)
extern "C" __global__ void iso4_guard_fma_shfl(float* out, const float* a, const float* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 0.0f;
  if (i < n) v = a[i] * b[i] + 1.0f;
  v += __shfl_xor_sync(0xffffffffu, v, 1);
  v += __shfl_xor_sync(0xffffffffu, v, 2);
  out[i] = v;
}
// signed divisions by warpSize (rule: reciprocal algorithm with the divisor folded; tt_mathKernel2)
extern "C" __global__ void iso4_sdiv_warp(int* out, const int* a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i] / warpSize + (i - 100) / warpSize;
}
// a loop with a uniform counter and blockDim arithmetic (rules: uniform datapath; olcf_row_sums)
extern "C" __global__ void iso4_uniform_loop(float* out, const float* a, int n, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
#pragma unroll 1
  for (int k = 0; k < n; ++k) acc += a[k * stride + i];
  out[i] = acc * (float)(blockDim.x >> 1);
}
// a 2D shared tile whose row offset is tid.y*row+window (rule: the window in a vector register;
// nvb_derivative_x)
extern "C" __global__ void iso4_window_imad(float* out, const float* a) {
  __shared__ float t[8][40];
  int x = threadIdx.x, y = threadIdx.y, g = (blockIdx.x * 8 + y) * 32 + x;
  t[y][x + 4] = a[g];
  __syncthreads();
  out[g] = t[y][x] + t[y][x + 8];
}
// atomic adds of an immediate to global memory (rule: the immediate moved once; lc_histogram_i32x4)
extern "C" __global__ void iso4_atom_imm(int* h, const int* a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = a[i];
  atomicAdd(&h[v & 255], 3);
  atomicAdd(&h[(v >> 4) & 255], 3);
}
// four __constant__ coefficients at fixed addresses (rule: ULDC, two per ULDC.64; nvb_derivative_x)
__constant__ float iso4_coef[4];
extern "C" __global__ void iso4_const_coef(float* out, const float* a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = a[i];
  out[i] = (iso4_coef[0] * x + iso4_coef[1]) * x + iso4_coef[2] * a[i + 1] + iso4_coef[3];
}
