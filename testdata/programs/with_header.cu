// Includes a header beside it (kernel and host helper) and writes a file in its directory's terms.
#include <cstdio>
#include "saxpy.cuh"

int main() {
  const int n = 10;
  float x[n], y[n];
  for (int i = 0; i < n; i++) x[i] = i, y[i] = 1;
  float *dx, *dy;
  cudaMalloc(&dx, sizeof x);
  cudaMalloc(&dy, sizeof y);
  cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y, sizeof y, cudaMemcpyHostToDevice);
  saxpyK<<<blocksFor(n, 4), 4>>>(2.0f, dx, dy, n);
  cudaMemcpy(y, dy, sizeof y, cudaMemcpyDeviceToHost);
  FILE *f = fopen("saxpy.cuh", "r");
  printf("y[9]=%g header_readable=%d\n", y[9], f != NULL);
  return 0;
}
