// cudaFuncGetAttributes and cudaOccupancyMaxPotentialBlockSize.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void tile(float *out) {
  __shared__ float t[1024];
  t[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = t[blockDim.x - 1 - threadIdx.x];
}

int main() {
  cudaFuncAttributes a;
  cudaFuncGetAttributes(&a, tile);
  printf("shared=%zu maxThreads=%d regs=%d binary=%d\n", a.sharedSizeBytes, a.maxThreadsPerBlock, a.numRegs, a.binaryVersion);
  int grid = 0, block = 0;
  cudaOccupancyMaxPotentialBlockSize(&grid, &block, tile, 0, 0);
  printf("grid=%d block=%d\n", grid, block);
  return 0;
}
