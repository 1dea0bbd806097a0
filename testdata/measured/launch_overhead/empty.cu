// Launch-overhead microbenchmark: kernels that do (almost) nothing, launched
// with many grid and block sizes and profiled with Nsight Compute, so that the
// cycles a launch costs beyond its instructions can be measured on the H200.
#include <cstdio>
#include <cstdlib>

extern "C" __global__ void empty_kernel() {}
extern "C" __global__ void one_store(int* p) { p[blockIdx.x * blockDim.x + threadIdx.x] = 1; }

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)

int main() {
  int grids[] = {1, 2, 4, 8, 16, 32, 66, 132, 264, 528, 1056, 4224};
  int blocks[] = {32, 256, 1024};
  int* p;
  CHECK(cudaMalloc(&p, sizeof(int) * 4224 * 1024));
  for (int b : blocks)
    for (int g : grids) {
      empty_kernel<<<g, b>>>();
      CHECK(cudaGetLastError());
      one_store<<<g, b>>>(p);
      CHECK(cudaGetLastError());
    }
  CHECK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
