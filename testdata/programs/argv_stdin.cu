// Reads a scale from argv and numbers from stdin, scales them on the device.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void scale(int *v, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= k;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s K < numbers\n", argv[0]);
    return 64;
  }
  int k = atoi(argv[1]);
  int h[1024], n = 0;
  while (n < 1024 && scanf("%d", &h[n]) == 1) n++;
  int *d;
  cudaMalloc(&d, n * sizeof(int));
  cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
  scale<<<(n + 63) / 64, 64>>>(d, n, k);
  cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++) printf("%d%c", h[i], i + 1 < n ? ' ' : '\n');
  fprintf(stderr, "scaled %d numbers by %d\n", n, k);
  return n;
}
