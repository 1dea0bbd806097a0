// A partial cudaMemcpyToSymbol keeps the rest of the variable's initialiser.
#include <cstdio>
#include <cuda_runtime.h>

__constant__ int table[4] = {10, 20, 30, 40};

__global__ void sum(int *out) { *out = table[0] + table[1] + table[2] + table[3]; }

int main() {
  int two[2] = {1, 2};
  cudaMemcpyToSymbol(table, two, sizeof two, 1 * sizeof(int));
  int *d, h = 0, back[4];
  cudaMalloc(&d, sizeof(int));
  sum<<<1, 1>>>(d);
  cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemcpyFromSymbol(back, table, sizeof back);
  printf("%d %d %d %d %d\n", h, back[0], back[1], back[2], back[3]);
  return 0;
}
