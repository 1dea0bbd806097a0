// Two launches share a __constant__ polynomial set once with cudaMemcpyToSymbol.
#include <cstdio>
#include <cuda_runtime.h>

__constant__ float coef[4];

__global__ void poly(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = coef[0] + x[i] * (coef[1] + x[i] * (coef[2] + x[i] * coef[3]));
}

__global__ void scaleByCoef(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] *= coef[3];
}

int main() {
  const int n = 300;
  float h[n], out[n];
  for (int i = 0; i < n; i++) h[i] = (i % 17) * 0.25f;
  const float c[4] = {1.0f, -2.0f, 0.5f, 3.0f};
  cudaMemcpyToSymbol(coef, c, sizeof c);
  float *dx, *dy;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&dy, n * sizeof(float));
  cudaMemcpy(dx, h, sizeof h, cudaMemcpyHostToDevice);
  poly<<<3, 128>>>(dx, dy, n);
  scaleByCoef<<<3, 128>>>(dy, n);
  cudaMemcpy(out, dy, sizeof out, cudaMemcpyDeviceToHost);
  float back[4];
  cudaMemcpyFromSymbol(back, coef, sizeof back);
  double sum = 0;
  for (int i = 0; i < n; i++) sum += out[i];
  printf("coef[3]=%g y[5]=%.4f sum=%.3f\n", back[3], out[5], sum);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
