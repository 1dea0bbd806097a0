// cudaMallocPitch and cudaMemcpy2D; texture objects answer cudaErrorNotSupported.
#include <cuda_runtime.h>
#include <cstdio>
__global__ void addRow(float *img, size_t pitch, int w, int h) {
  int x = threadIdx.x, y = blockIdx.x;
  if (x < w && y < h) { float *row = (float *)((char *)img + y * pitch); row[x] += y; }
}
int main() {
  const int w = 5, h = 3;
  float host[h][w];
  for (int y = 0; y < h; y++) for (int x = 0; x < w; x++) host[y][x] = x;
  float *d; size_t pitch;
  cudaMallocPitch((void **)&d, &pitch, w * sizeof(float), h);
  cudaMemcpy2D(d, pitch, host, w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice);
  addRow<<<h, 32>>>(d, pitch, w, h);
  cudaMemcpy2D(host, w * sizeof(float), d, pitch, w * sizeof(float), h, cudaMemcpyDeviceToHost);
  printf("pitch=%zu %g %g %g\n", pitch, host[0][4], host[1][4], host[2][0]);
  cudaTextureObject_t t; cudaResourceDesc r = {}; cudaTextureDesc td = {};
  printf("%s\n", cudaGetErrorName(cudaCreateTextureObject(&t, &r, &td, nullptr)));
}
