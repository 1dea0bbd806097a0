// 64-bin histogram of byte values (value / 4). Each block counts into shared
// memory with atomicAdd, then adds its counts to the global bins: far fewer
// global atomics than one per element, and lanes that hit the same bin
// serialise only within the block.
#define BINS 64
extern "C" __global__ void histogram_atomics(const unsigned char* data, unsigned int* bins, int n) {
  __shared__ unsigned int counts[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) counts[b] = 0;
  __syncthreads();
  int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    atomicAdd(&counts[data[i] / 4], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) {
    if (counts[b] != 0) atomicAdd(&bins[b], counts[b]);
  }
}
