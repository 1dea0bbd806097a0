// 100 small launches in a row (the overhead benchmark).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void inc(int *a) { a[threadIdx.x] += 1; }

int main() {
  int *d, h[32];
  cudaMalloc(&d, sizeof h);
  cudaMemset(d, 0, sizeof h);
  for (int i = 0; i < 100; i++) inc<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d\n", h[0], h[31]);
  return 0;
}
