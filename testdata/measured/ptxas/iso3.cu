// Third set of isolating kernels (gpu/ptxas calibration, SASS listings and ncu counts): convergence
// barriers for warp-uniform branches and for divergent ifs in loops, predication of guarded global
// loads, and-with-mask tests, combined predicates, loops with 64-bit and unsigned counters.
#include <cuda_runtime.h>
// a branch on a kernel parameter (the same for every lane) around a region too large to predicate
extern "C" __global__ void iso3_uniform_branch(float* out, const float* a, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = out[i];
  if (flag > 3) {
    float x = a[i], y = a[i + 256];
    for (int k = 0; k < 6; ++k) { v = v * x + y; x = x * y + 0.25f; }
  }
  out[i] = v;
}
// a divergent if holding global loads and a store, inside a loop that a uniform test guards
extern "C" __global__ void iso3_loop_if_gmem(int* g, int n) {
  int* b = g + blockIdx.x * blockDim.x;
  for (int s = 1; s < n; s *= 2) {
    int k = 2 * s * threadIdx.x;
    if (k < n) b[k] += b[k + s];
    __syncthreads();
  }
}
// a guarded global load whose value is only used after the paths meet
extern "C" __global__ void iso3_guard_ld(float* out, const float* a, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? a[i] : 0.0f;
  out[i] = v * s;
}
// the same feeding a shared store (a reduction's first step)
extern "C" __global__ void iso3_guard_smem(float* out, const float* a, int n) {
  __shared__ float sm[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  sm[threadIdx.x] = i < n ? a[i] : 0.0f;
  __syncthreads();
  out[i] = sm[threadIdx.x ^ 1];
}
// a guarded region with two global loads used inside it
extern "C" __global__ void iso3_guard_ld_use(float* out, const float* a, const float* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 1.0f;
  if (i < n) v = a[i] * b[i] + 2.0f;
  out[i] = v * v;
}
// tests of masked bits: (x & m) == 0 and != 0 guarding small stores
extern "C" __global__ void iso3_and_test(float* out, const float* a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = a[i];
  if ((i & 3) == 0) out[i] = v * 2.0f;
  if ((threadIdx.x & 16) != 0) out[i + 4096] = v;
}
// a 2D bounds check: two compares and an or of predicates guarding a copy
extern "C" __global__ void iso3_bounds2d(float* out, const float* a, int nx, int ny) {
  int x = threadIdx.x % 16, y = threadIdx.x / 16 + blockIdx.x * 8;
  if (x < nx && y < ny) out[y * nx + x] = a[x * ny + y];
}
// a while loop with two exit conditions (an and of predicates on the back edge)
extern "C" __global__ void iso3_while2(unsigned* out, const unsigned* a, int lim) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned x = a[i] | 0x1000u;
  int s = 0;
  while (x > 100u && s < lim) { x = x * 1664525u + 1013904223u; ++s; }
  out[i] = x + s;
}
// a loop over a runtime length with a 64-bit counter
extern "C" __global__ void iso3_loop_u64(float* out, const float* a, size_t n) {
  size_t r = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
  for (size_t k = 0; k < n; ++k) acc += a[r * n + k];
  out[r] = acc;
}
// the same with an unsigned 32-bit counter
extern "C" __global__ void iso3_loop_u32(float* out, const float* a, unsigned n) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
  for (unsigned k = 0; k < n; ++k) acc += a[r * n + k];
  out[r] = acc;
}
// the same with a signed counter and a 64-bit bound test (int k, compared to a size_t)
extern "C" __global__ void iso3_loop_i32(float* out, const float* a, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
  for (int k = 0; k < n; ++k) acc += a[r * n + k];
  out[r] = acc;
}
// a guarded copy (a global load and a store of another array) followed by more code
extern "C" __global__ void iso3_guard_copy(float* out, const float* a, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] * s;
  out[i + 4096] = s;
}
// a loop whose body is a guarded load and an add (the test differs per lane and trip)
extern "C" __global__ void iso3_loop_guard_ld(float* out, const float* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
  for (int k = 0; k < n; ++k) {
    int j = i + 3 * k - 100;
    if (j >= 0) acc += a[j];
  }
  out[i] = acc;
}
// quotient and remainder by the same runtime divisor, and by warpSize
extern "C" __global__ void iso3_divrem(int* out, const int* a, int d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int x = a[i];
  int q = x / d, r = x % d;
  int lane = threadIdx.x % warpSize, w = threadIdx.x / warpSize;
  out[i] = q * 1000 + r + lane * 7 + w;
}
// a test of blockDim (the same for every lane) and of the thread index guarding a shared update
extern "C" __global__ void iso3_uniform_and_tid(float* out, const float* a) {
  __shared__ float sm[128];
  unsigned tid = threadIdx.x;
  sm[tid] = a[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  if (blockDim.x >= 128 && tid < 64) sm[tid] += sm[tid + 64];
  __syncthreads();
  if (blockDim.x >= 64 && tid < 32) sm[tid] += sm[tid + 32];
  __syncthreads();
  out[blockIdx.x * blockDim.x + tid] = sm[tid];
}
// guarded loads (value used after the paths meet) inside a region that a divergent test opened
extern "C" __global__ void iso3_open_guard_ld(float* out, const float* a, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
  if (i < m) {
#pragma unroll
    for (int k = 0; k < 4; ++k) { int j = i + k * 64; acc += j < n ? a[j] : 0.0f; }
  }
  out[i] = acc;
}
// the same with the loaded value used inside each guarded region
extern "C" __global__ void iso3_open_guard_ld_use(float* out, const float* a, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
  if (i < m) {
#pragma unroll
    for (int k = 0; k < 4; ++k) { int j = i + k * 64; if (j < n) acc = acc * 0.5f + a[j]; }
  }
  out[i] = acc;
}
// selects between two immediates (SEL/FSEL take one immediate operand)
extern "C" __global__ void iso3_selp_imm(float* out, const float* a, int* o2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = a[i];
  out[i] = v > 0.5f ? 100.0f : 200.0f;
  o2[i] = (__float_as_int(v) & 64) ? 7 : 9;
}
