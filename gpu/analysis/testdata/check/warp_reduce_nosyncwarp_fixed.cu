%grid 2
%block 128
%launch reduce(in=rand(256), out=zeros(2))
// The last warp reads, synchronises, then writes: __syncwarp() between steps.
extern "C" __global__ void reduce(const float* in, float* out) {
  __shared__ float s[128];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  if (tid < 64) s[tid] += s[tid + 64];
  __syncthreads();
  if (tid < 32) {
    for (int off = 32; off > 0; off >>= 1) {
      float v = s[tid] + s[tid + off];
      __syncwarp();
      s[tid] = v;
      __syncwarp();
    }
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}
