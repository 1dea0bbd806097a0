%grid 1
%block 256
%launch hist(data=rand(256, 0, 8):u8, bins=zeros(8):u32)
// Shared bins incremented with atomicAdd.
extern "C" __global__ void hist(const unsigned char* data, unsigned* bins) {
  __shared__ unsigned local[8];
  if (threadIdx.x < 8) local[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(&local[data[threadIdx.x]], 1u);
  __syncthreads();
  if (threadIdx.x < 8) bins[threadIdx.x] = local[threadIdx.x];
}
