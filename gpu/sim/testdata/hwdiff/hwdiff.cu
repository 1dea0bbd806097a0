// Differential kernels: run on the H200 (see README.md) and by the simulator from their PTX.
#include <cstdio>
#include <cstdlib>
#include <cuda_fp16.h>
__global__ void kA(int* o, int n) {  // local array with dynamic indexing
  int a[16];
  for (int i = 0; i < 16; i++) a[i] = i * threadIdx.x + n;
  o[threadIdx.x] = a[(threadIdx.x * 7 + n) % 16] + a[n % 16];
}
__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__global__ void kB(int* o) { o[threadIdx.x] = fib(threadIdx.x % 12); }  // recursion
__global__ void kC(unsigned* o) {  // shared and global integer atomics
  __shared__ unsigned s[4];
  if (threadIdx.x < 4) s[threadIdx.x] = 0;
  __syncthreads();
  atomicMax(&s[0], threadIdx.x * 37 % 101);
  atomicInc(&s[1], 17);
  atomicAdd(&s[2], threadIdx.x);
  atomicXor(&s[3], threadIdx.x * 2654435761u);
  atomicMin(&o[4], 1000u - threadIdx.x);
  atomicDec(&o[5], 9u);
  __syncthreads();
  if (threadIdx.x < 4) o[threadIdx.x] = s[threadIdx.x];
}
__global__ void kD(int* o) {  // warp collectives inside divergent code
  int t = threadIdx.x, v = t * 3 + 1;
  if (t % 3 == 0) {
    unsigned m = __activemask();
    int leader = __ffs(m) - 1;
    v += __shfl_sync(m, v, leader);
    v += __reduce_add_sync(m, t) + __popc(__ballot_sync(m, t & 4));
    o[t] = v ^ (int)m;
  } else {
    unsigned m = __activemask();
    o[t] = __reduce_max_sync(m, v) + __match_any_sync(m, t % 5);
  }
}
__global__ void kE(int* o) {  // barrier reductions and a dense switch
  int t = threadIdx.x, c = __syncthreads_count(t % 7 == 0);
  int a = __syncthreads_and(t < 200), b = __syncthreads_or(t == 77);
  int r;
  switch (t % 8) {
    case 0: r = 11; break; case 1: r = t * 2; break; case 2: r = 5 - t; break; case 3: r = t ^ 9; break;
    case 4: r = t << 3; break; case 5: r = 77; break; case 6: r = t / 3; break; default: r = -t;
  }
  o[t] = c * 1000000 + a * 100000 + b * 10000 + r;
}
extern __shared__ int dyn[];
__global__ void kF(int* o) {  // 3-D indices and dynamic shared memory
  int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  int b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  dyn[t] = t * 7;
  __syncthreads();
  int n = blockDim.x * blockDim.y * blockDim.z;
  o[b * n + t] = dyn[n - 1 - t] + 100 * threadIdx.z + 1000 * blockIdx.y + 10000 * blockIdx.z;
}
__global__ void kG(float* o) {  // float atomics: exact sums, and subnormals (flushed by atom.add.f32)
  __shared__ float s[2];
  __shared__ double d;
  __shared__ __half h;
  int t = threadIdx.x;
  if (t < 2) s[t] = 0.0f;
  if (t == 0) { d = 0.0; h = __float2half(0.0f); }
  __syncthreads();
  atomicAdd(&s[0], 0.5f * t);
  atomicAdd(&s[1], __int_as_float(0x00000100 + t));
  atomicAdd(&d, 0.25 * t);
  atomicAdd(&o[2], __int_as_float(0x00000001));
  atomicAdd(&o[3], -1.5f);
  float old = atomicExch(&o[4], 2.0f);
  atomicAdd(&h, __float2half(0.5f));
  atomicAdd((__half2*)&o[6], __halves2half2(__float2half(1.0f), __float2half(-0.25f)));
  __syncthreads();
  if (t == 0) { o[0] = s[0]; o[1] = s[1]; ((double*)o)[4] = d; o[5] = old == 0.0f || old == 2.0f; ((__half*)o)[14] = h; }
}
static void dump(const char* dir, const char* name, void* d, size_t n) {
  void* h = malloc(n);
  cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost);
  char path[512];
  snprintf(path, sizeof path, "%s/%s.bin", dir, name);
  FILE* f = fopen(path, "wb");
  fwrite(h, 1, n, f);
  fclose(f);
  free(h);
}
int main(int argc, char** argv) {
  const char* dir = argc > 1 ? argv[1] : ".";
  int* o;
  cudaMalloc(&o, 1 << 16);
  cudaMemset(o, 0, 1 << 16); kA<<<1, 64>>>(o, 5); dump(dir, "kA", o, 64 * 4);
  cudaMemset(o, 0, 1 << 16); kB<<<1, 64>>>(o); dump(dir, "kB", o, 64 * 4);
  cudaMemset(o, 0, 1 << 16); kC<<<1, 128>>>((unsigned*)o); dump(dir, "kC", o, 6 * 4);
  cudaMemset(o, 0, 1 << 16); kD<<<1, 64>>>(o); dump(dir, "kD", o, 64 * 4);
  cudaMemset(o, 0, 1 << 16); kE<<<1, 256>>>(o); dump(dir, "kE", o, 256 * 4);
  cudaMemset(o, 0, 1 << 16); kF<<<dim3(2, 3, 2), dim3(4, 2, 3), 24 * 4>>>(o); dump(dir, "kF", o, 12 * 24 * 4);
  cudaMemset(o, 0, 1 << 16); kG<<<1, 128>>>((float*)o); dump(dir, "kG", o, 10 * 4);
  printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
