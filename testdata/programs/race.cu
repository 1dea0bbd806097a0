// A shared-memory race (no barrier between the write and the neighbour's read).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void shift(const int *in, int *out) {
  __shared__ int s[64];
  s[threadIdx.x] = in[threadIdx.x];
  out[threadIdx.x] = s[(threadIdx.x + 1) % 64];
}

int main() {
  int h[64];
  for (int i = 0; i < 64; i++) h[i] = i;
  int *a, *b;
  cudaMalloc(&a, sizeof h);
  cudaMalloc(&b, sizeof h);
  cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice);
  shift<<<1, 64>>>(a, b);
  cudaMemcpy(h, b, sizeof h, cudaMemcpyDeviceToHost);
  printf("%s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
