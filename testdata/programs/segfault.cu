// Host code dereferences a null pointer after one launch.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void touch(int *a) { a[threadIdx.x] = threadIdx.x; }

int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  touch<<<1, 32>>>(d);
  cudaDeviceSynchronize();
  printf("before the crash\n");
  fflush(stdout);
  volatile int *p = nullptr;
  *p = 1;
  printf("not reached\n");
  return 0;
}
