%grid 1
%block 256
%launch hist(data=rand(256, 0, 8):u8, bins=zeros(8):u32)
// Shared bins incremented with a plain ++ by many threads at once.
extern "C" __global__ void hist(const unsigned char* data, unsigned* bins) {
  __shared__ unsigned local[8];
  if (threadIdx.x < 8) local[threadIdx.x] = 0;
  __syncthreads();
  local[data[threadIdx.x]]++; // BUG race
  __syncthreads();
  if (threadIdx.x < 8) bins[threadIdx.x] = local[threadIdx.x];
}
