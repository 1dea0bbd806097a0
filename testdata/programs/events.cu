// Events time a launch; device properties are the modelled architecture's.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void saxpy(float a, const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) y[i] = a * x[i] + y[i];
}

int main() {
  int count = 0;
  cudaGetDeviceCount(&count);
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  printf("devices=%d cc=%d.%d sms=%d warp=%d maxThreads=%d smemBlock=%zu\n", count, p.major, p.minor, p.multiProcessorCount,
         p.warpSize, p.maxThreadsPerBlock, p.sharedMemPerBlock);
  int active = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&active, saxpy, 256, 0);
  printf("active blocks per SM at 256 threads: %d\n", active);
  const int n = 1 << 14;
  float *x, *y;
  cudaMallocManaged(&x, n * sizeof(float));
  cudaMallocManaged(&y, n * sizeof(float));
  for (int i = 0; i < n; i++) x[i] = 1.0f, y[i] = 2.0f;
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaEventRecord(start, s);
  saxpy<<<32, 256, 0, s>>>(3.0f, x, y, n);
  cudaEventRecord(stop, s);
  cudaEventSynchronize(stop);
  cudaStreamSynchronize(s);
  float ms = -1;
  cudaEventElapsedTime(&ms, start, stop);
  printf("y[0]=%g y[n-1]=%g positive_time=%d\n", y[0], y[n - 1], ms > 0);
  printf("ELAPSED_MS %.6f\n", ms);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaStreamDestroy(s);
  return 0;
}
