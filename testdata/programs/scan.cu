// Multi-launch inclusive scan: per-block scan, scan of the block sums, add.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define B 256

__global__ void blockScan(const int *in, int *out, int *sums, int n) {
  __shared__ int s[B];
  int i = blockIdx.x * B + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (int off = 1; off < B; off *= 2) {
    int v = threadIdx.x >= off ? s[threadIdx.x - off] : 0;
    __syncthreads();
    s[threadIdx.x] += v;
    __syncthreads();
  }
  if (i < n) out[i] = s[threadIdx.x];
  if (threadIdx.x == B - 1) sums[blockIdx.x] = s[B - 1];
}

__global__ void addSums(int *out, const int *scannedSums, int n) {
  int i = blockIdx.x * B + threadIdx.x;
  if (blockIdx.x > 0 && i < n) out[i] += scannedSums[blockIdx.x - 1];
}

int main() {
  const int n = 5000, blocks = (n + B - 1) / B;
  int *h = (int *)malloc(n * sizeof(int)), *r = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) h[i] = (i * 7) % 13 - 4;
  int *din, *dout, *dsums, *dsums2, *dtmp;
  cudaMalloc(&din, n * sizeof(int));
  cudaMalloc(&dout, n * sizeof(int));
  cudaMalloc(&dsums, B * sizeof(int));
  cudaMalloc(&dsums2, B * sizeof(int));
  cudaMalloc(&dtmp, sizeof(int));
  cudaMemcpy(din, h, n * sizeof(int), cudaMemcpyHostToDevice);
  blockScan<<<blocks, B>>>(din, dout, dsums, n);
  blockScan<<<1, B>>>(dsums, dsums2, dtmp, blocks);
  addSums<<<blocks, B>>>(dout, dsums2, n);
  cudaError_t e = cudaMemcpy(r, dout, n * sizeof(int), cudaMemcpyDeviceToHost);
  long long check = 0;
  for (int i = 0; i < n; i++) check = (check * 31 + r[i]) % 1000000007;
  printf("%s last=%d checksum=%lld\n", cudaGetErrorName(e), r[n - 1], check);
  return 0;
}
