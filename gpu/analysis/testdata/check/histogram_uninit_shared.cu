%grid 2
%block 256
%launch hist(data=rand(2048, 0, 64):u8, bins=zeros(64):u32, n=2048)
// Shared bins are never zeroed before the atomics.
extern "C" __global__ void hist(const unsigned char* data, unsigned* bins, int n) {
  __shared__ unsigned local[64];
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i]], 1u); // BUG uninitialized
  __syncthreads();
  if (threadIdx.x < 64) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}
