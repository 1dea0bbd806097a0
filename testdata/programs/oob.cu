// A kernel that writes one element past its buffer: the next synchronising call fails.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fill(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) a[i] = i; // bug: <= writes a[n]
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
