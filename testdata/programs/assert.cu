// A failed device assert: the next synchronising call returns cudaErrorAssert.
#include <cassert>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void check(const int *a) { assert(a[threadIdx.x] == 0); }

int main() {
  int *d;
  cudaMalloc(&d, 4 * sizeof(int));
  cudaMemset(d, 0, 4 * sizeof(int));
  check<<<1, 4>>>(d);
  printf("first: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  cudaMemset(d, 1, sizeof(int));
  check<<<1, 4>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  printf("second: %s (%d)\n", cudaGetErrorName(e), (int)e);
  return 0;
}
