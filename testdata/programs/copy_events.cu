// Events around copies: cudaEventElapsedTime includes cudaMemcpy and cudaMemset on the default stream.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void twice(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}

int main() {
  const int n = 3 << 18; // 3 MiB of floats: a size the copy model was not fitted on
  size_t bytes = n * sizeof(float);
  float *h = (float *)malloc(bytes), *pinned, *d, *d2;
  for (int i = 0; i < n; i++) h[i] = 1.0f;
  cudaMallocHost(&pinned, bytes);
  cudaMalloc(&d, bytes);
  cudaMalloc(&d2, bytes);
  cudaEvent_t e[6];
  for (int i = 0; i < 6; i++) cudaEventCreate(&e[i]);
  cudaEventRecord(e[0]);
  cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);
  cudaEventRecord(e[1]);
  twice<<<(n + 255) / 256, 256>>>(d, n);
  cudaEventRecord(e[2]);
  cudaMemcpy(pinned, d, bytes, cudaMemcpyDeviceToHost);
  cudaEventRecord(e[3]);
  cudaMemcpy(d2, d, bytes, cudaMemcpyDeviceToDevice);
  cudaMemset(d, 0, bytes);
  cudaEventRecord(e[4]);
  cudaMemcpy(h, d2, bytes, cudaMemcpyDeviceToHost);
  cudaEventRecord(e[5]);
  cudaEventSynchronize(e[5]);
  const char *what[5] = {"h2d_pageable", "kernel", "d2h_pinned", "d2d+memset", "d2h_pageable"};
  for (int i = 0; i < 5; i++) {
    float ms = 0;
    cudaEventElapsedTime(&ms, e[i], e[i + 1]);
    printf("MS %s %.6f\n", what[i], ms);
  }
  printf("h[0]=%g pinned[n-1]=%g\n", h[0], pinned[n - 1]);
  return 0;
}
