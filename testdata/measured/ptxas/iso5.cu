// KernelScope gpu/ptxas, wave 6 (issue 20): f16 pairs (calibration of the HFMA2/HADD2 pairing
// rule), #pragma unroll 1 loops (held-out check of the nounroll rule) and a chained bounds test
// (a convolution's `x >= 0 && x < n`), our own code.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
// two f16 adds of the halves of two half2 loads, stored as one half2
extern "C" __global__ void iso5_h2_add(__half* c, const __half* a, const __half* b, int n) {
  int i = 2 * (blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) {
    __half2 x = *reinterpret_cast<const __half2*>(a + i), y = *reinterpret_cast<const __half2*>(b + i);
    __half2 r;
    r.x = __hadd(x.x, y.x);
    r.y = __hadd(x.y, y.y);
    *reinterpret_cast<__half2*>(c + i) = r;
  }
}
// the same with multiplies
extern "C" __global__ void iso5_h2_mul(__half* c, const __half* a, const __half* b, int n) {
  int i = 2 * (blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) {
    __half2 x = *reinterpret_cast<const __half2*>(a + i), y = *reinterpret_cast<const __half2*>(b + i);
    __half2 r;
    r.x = __hmul(x.x, y.x);
    r.y = __hmul(x.y, y.y);
    *reinterpret_cast<__half2*>(c + i) = r;
  }
}
// the same with fused multiply-adds of three half2 loads
extern "C" __global__ void iso5_h2_fma(__half* c, const __half* a, const __half* b, const __half* d, int n) {
  int i = 2 * (blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) {
    __half2 x = *reinterpret_cast<const __half2*>(a + i), y = *reinterpret_cast<const __half2*>(b + i),
            z = *reinterpret_cast<const __half2*>(d + i);
    __half2 r;
    r.x = __hfma(x.x, y.x, z.x);
    r.y = __hfma(x.y, y.y, z.y);
    *reinterpret_cast<__half2*>(c + i) = r;
  }
}
// paired halves added, the two sums stored apart (two arrays)
extern "C" __global__ void iso5_h2_add_split(__half* c, __half* e, const __half* a, const __half* b, int n) {
  int i = 2 * (blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) {
    __half2 x = *reinterpret_cast<const __half2*>(a + i), y = *reinterpret_cast<const __half2*>(b + i);
    c[i / 2] = __hadd(x.x, y.x);
    e[i / 2] = __hadd(x.y, y.y);
  }
}
// a counted loop the user keeps rolled (nvcc: .pragma "nounroll")
extern "C" __global__ void iso5_nounroll_sum(float* out, const float* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
#pragma unroll 1
  for (int k = 0; k < n; ++k) s += a[i + k * 256];
  out[i] = s;
}
// the same with a constant trip count
extern "C" __global__ void iso5_nounroll_const(float* out, const float* a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 1.0f;
#pragma unroll 1
  for (int k = 0; k < 48; ++k) s = s * 0.5f + a[(i + 32 * k) & 65535];
  out[i] = s;
}
// a 5-tap convolution with its bounds test chained per tap
extern "C" __global__ void iso5_conv5(float* out, const float* a, const float* w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int j = -2; j <= 2; ++j) {
    int x = i + j;
    if (x >= 0 && x < n) s += a[x] * w[j + 2];
  }
  if (i < n) out[i] = s;
}
