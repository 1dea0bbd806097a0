// Pinned host memory: copied from, and read by a kernel directly (zero-copy).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void sumInto(const int *host, int *out, int n) {
  int s = 0;
  for (int i = 0; i < n; i++) s += host[i];
  *out = s;
}

int main() {
  const int n = 100;
  int *h, *dh, *out;
  cudaMallocHost(&h, n * sizeof(int));
  for (int i = 0; i < n; i++) h[i] = i + 1;
  cudaHostGetDevicePointer((void **)&dh, h, 0);
  cudaMallocManaged(&out, sizeof(int));
  sumInto<<<1, 1>>>(dh, out, n);
  cudaError_t e = cudaDeviceSynchronize();
  int *d, back[n];
  cudaMalloc(&d, n * sizeof(int));
  cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(back, d, n * sizeof(int), cudaMemcpyDeviceToHost);
  printf("%s sum=%d back[99]=%d\n", cudaGetErrorName(e), *out, back[99]);
  cudaFreeHost(h);
  cudaFree(out);
  return 0;
}
