// Kernels that isolate one ptxas lowering pattern each (KernelScope gpu/ptxas calibration set).
// Every kernel: grid 2 x block 128, buffers of 4096 elements (float/int), ints n=256, s=3.
#include <cuda_runtime.h>
extern "C" __global__ void iso_param(float* out, const float* a, int n, float f) {
  int i = threadIdx.x;
  if (i < n) out[i] = a[i] * f + (float)n;
}
extern "C" __global__ void iso_sreg(int* out) {
  int v = threadIdx.x + blockIdx.x * blockDim.x + threadIdx.y * 7 + gridDim.x * 3;
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
extern "C" __global__ void iso_laneid(int* out) {
  unsigned l; asm volatile("mov.u32 %0, %%laneid;" : "=r"(l));
  unsigned c; asm volatile("mov.u32 %0, %%clock;" : "=r"(c));
  out[blockIdx.x * blockDim.x + threadIdx.x] = l + (c & 0);
}
extern "C" __global__ void iso_addr2d(float* out, const float* a, int w) {
  int x = threadIdx.x & 15, y = threadIdx.x >> 4;
  int r = blockIdx.x * 8 + y;
  out[r * w + x] = a[x * w + r] + a[r * w + x + 1];
}
extern "C" __global__ void iso_addr64(float* out, const float* a, long long s) {
  long long i = blockIdx.x * 128 + threadIdx.x;
  out[i] = a[i * s % 4096];
}
extern "C" __global__ void iso_selp(float* out, const float* a, const float* b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = a[i], y = b[i];
  out[i] = (x < y ? x : y * 2.0f) + (i > 100 ? 1.0f : 0.0f);
}
extern "C" __global__ void iso_minmax(int* out, const int* a, const int* b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int x = a[i], y = b[i];
  out[i] = max(x, y) - min(x, 3) + abs(y);
}
extern "C" __global__ void iso_pred(float* out, const float* a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = a[i];
  if (i & 1) v = v * 3.0f + 1.0f;
  out[i] = v;
}
extern "C" __global__ void iso_branch(float* out, const float* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = a[i];
  if (i % 3 == 0) { for (int k = 0; k < n; ++k) v = v * 1.5f + a[(i + k) & 4095]; }
  else v = -v;
  out[i] = v;
}
extern "C" __global__ void iso_lds64(float* out) {
  __shared__ float s[512];
  int t = threadIdx.x;
  s[t] = t; s[t + 128] = t + 1; s[t + 256] = t + 2; s[t + 384] = t + 3;
  __syncthreads();
  out[blockIdx.x * 128 + t] = s[2 * t] + s[2 * t + 1];
}
extern "C" __global__ void iso_lds128(float* out) {
  __shared__ float s[512];
  int t = threadIdx.x;
  s[t] = t; s[t + 128] = t + 1; s[t + 256] = t + 2; s[t + 384] = t + 3;
  __syncthreads();
  out[blockIdx.x * 128 + t] = s[4 * t] + s[4 * t + 1] + s[4 * t + 2] + s[4 * t + 3];
}
extern "C" __global__ void iso_lds_unal(float* out) {
  __shared__ float s[520];
  int t = threadIdx.x;
  s[t] = t; s[t + 128] = t + 1; s[t + 256] = t + 2; s[t + 384] = t + 3;
  __syncthreads();
  out[blockIdx.x * 128 + t] = s[2 * t + 1] + s[2 * t + 2] + s[4 * t + 5] + s[4 * t + 6];
}
extern "C" __global__ void iso_lds_row(float* out, int n) {
  __shared__ float s[16][17];
  int x = threadIdx.x & 15, y = threadIdx.x >> 4;
  s[y][x] = x + y; s[y + 8][x] = x - y;
  __syncthreads();
  float acc = 0;
  for (int k = 0; k < 16; ++k) acc += s[y][k] * s[k][x];
  out[blockIdx.x * 128 + threadIdx.x] = acc;
}
extern "C" __global__ void iso_lds_row16(float* out) {
  __shared__ float s[16][16];
  int x = threadIdx.x & 15, y = threadIdx.x >> 4;
  s[y][x] = x + y; s[y + 8][x] = x - y;
  __syncthreads();
  float acc = 0;
  for (int k = 0; k < 16; ++k) acc += s[y][k] * s[k][x];
  out[blockIdx.x * 128 + threadIdx.x] = acc;
}
extern "C" __global__ void iso_sts_merge(float* out) {
  __shared__ float s[512];
  int t = threadIdx.x;
  s[2 * t] = t; s[2 * t + 1] = t + 1;
  s[256 + 4 * (t & 63)] = 1; s[257 + 4 * (t & 63)] = 2; s[258 + 4 * (t & 63)] = 3; s[259 + 4 * (t & 63)] = 4;
  __syncthreads();
  out[blockIdx.x * 128 + t] = s[t] + s[511 - t];
}
extern "C" __global__ void iso_ldg_adj(float* out, const float* a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[2 * i] + a[2 * i + 1] + a[4 * i + 1] + a[4 * i + 2];
}
extern "C" __global__ void iso_ldg_vec(float* out, const float4* a, const float2* b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = a[i & 511]; float2 w = b[i];
  out[i] = v.x + v.y + v.z + v.w + w.x + w.y;
}
extern "C" __global__ void iso_stg_adj(float* out, const float* a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = a[i];
  out[2 * i] = v; out[2 * i + 1] = v + 1;
}
extern "C" __global__ void iso_libm(float* out, const float* a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = a[i];
  out[i] = expf(v) + sinf(v) + sqrtf(v) + logf(v + 2.0f) + v / (a[i + 1] + 3.0f);
}
extern "C" __global__ void iso_fastm(float* out, const float* a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = a[i];
  out[i] = __expf(v) + __sinf(v) + __fdividef(v, a[i + 1] + 3.0f) + rsqrtf(v + 1.0f);
}
extern "C" __global__ void iso_idiv(int* out, const int* a, int d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = a[i];
  out[i] = v / d + v % (d + 1) + (unsigned)v / 7u + v % 16;
}
extern "C" __global__ void iso_f64(double* out, const double* a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double v = a[i];
  out[i] = v / (a[i + 1] + 3.0) + sqrt(v + 2.0) + v * 1.5;
}
extern "C" __global__ void iso_cvt(float* out, const int* a, const double* b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = (float)a[i] + (float)b[i] + (float)(unsigned char)a[i] + __int2float_rz(a[i] >> 3);
}
extern "C" __global__ void iso_atom_shfl(int* out, const int* a) {
  __shared__ int h[32];
  int t = threadIdx.x;
  if (t < 32) h[t] = 0;
  __syncthreads();
  int v = a[blockIdx.x * 128 + t];
  atomicAdd(&h[v & 31], 1);
  int s = v;
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffff, s, o);
  __syncthreads();
  if ((t & 31) == 0) atomicAdd(&out[0], s);
  if (t < 32) atomicAdd(&out[1 + t], h[t]);
}
extern "C" __global__ void iso_loop(float* out, const float* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
  for (int k = 0; k < n; ++k) acc += a[(i + k * 7) & 4095];
  out[i] = acc;
}
extern "C" __global__ void iso_loop_const(float* out, const float* a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
#pragma unroll 1
  for (int k = 0; k < 64; ++k) acc = acc * 0.5f + a[(i + k) & 4095];
  out[i] = acc;
}
