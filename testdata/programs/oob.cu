// A kernel that writes far past its buffer: the next synchronising call fails, on the GPU
// and in KernelScope. (On the H200 a write up to 64 MiB past a small allocation lands in
// mapped memory and goes unnoticed, one 256 MiB past is cudaErrorInvalidAddressSpace, 1 GiB
// past cudaErrorIllegalAddress; KernelScope, like compute-sanitizer, stops at any byte
// outside the allocation.)
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fill(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = i;
  if (i == n) a[(size_t)1 << 28] = i; // bug: a write 1 GiB past the buffer
}

int main() {
  const int n = 256;
  int *d;
  cudaMalloc(&d, n * sizeof(int));
  fill<<<2, 256>>>(d, n);
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  printf("launch: %s\n", cudaGetErrorName(launch));
  printf("sync: %s (%d): %s\n", cudaGetErrorName(sync), (int)sync, cudaGetErrorString(sync));
  int h[4];
  cudaError_t after = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("after: %s\n", cudaGetErrorName(after));
  return sync == cudaSuccess ? 0 : 2;
}
