// cudaLaunchKernel, dynamic shared memory above 48 KB after cudaFuncSetAttribute,
// cudaMemset, a device-to-device copy, managed memory written by a kernel, device printf.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void reverseBlock(const int *in, int *out, int n) {
  extern __shared__ int buf[];
  int t = threadIdx.x;
  buf[t] = in[t];
  __syncthreads();
  out[t] = buf[n - 1 - t];
  if (t == 0) printf("block of %d reversed\n", n);
}

int main() {
  const int n = 128;
  int h[n];
  for (int i = 0; i < n; i++) h[i] = i * 3;
  int *a, *b, *m;
  cudaMalloc(&a, n * sizeof(int));
  cudaMalloc(&b, n * sizeof(int));
  cudaMallocManaged(&m, n * sizeof(int));
  cudaMemset(b, 0xff, n * sizeof(int));
  cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice);
  int nn = n;
  void *args[] = {&a, &m, &nn};
  size_t big = 64 * 1024;
  cudaError_t refused = cudaLaunchKernel((const void *)reverseBlock, dim3(1), dim3(n), args, big, 0);
  printf("without the attribute: %s\n", cudaGetErrorName(refused));
  cudaGetLastError();
  cudaFuncSetAttribute(reverseBlock, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)big);
  cudaError_t ok = cudaLaunchKernel((const void *)reverseBlock, dim3(1), dim3(n), args, big, 0);
  cudaDeviceSynchronize();
  printf("with it: %s m[0]=%d m[127]=%d\n", cudaGetErrorName(ok), m[0], m[127]);
  int back[n];
  cudaMemcpy(back, b, sizeof back, cudaMemcpyDeviceToHost);
  printf("memset: %d\n", back[5]);
  cudaMemcpy(b, m, sizeof back, cudaMemcpyDeviceToDevice);
  cudaMemcpy(back, b, sizeof back, cudaMemcpyDeviceToHost);
  printf("copied: %d %d\n", back[0], back[127]);
  printf("host reads a device pointer next\n");
  fflush(stdout);
  return a[0];
}
