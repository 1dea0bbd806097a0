%grid 2
%block 128
%launch reduce(in=rand(256), out=zeros(2))
// Reduction whose last warp runs "warp-synchronously" on a non-volatile array
// without __syncwarp(): a race under independent thread scheduling (sm_70+).
// With no barrier between the steps, clang keeps the partial sums in registers
// and the shared accesses that remain (and race) are those of the last line.
extern "C" __global__ void reduce(const float* in, float* out) {
  __shared__ float s[128];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  if (tid < 64) s[tid] += s[tid + 64];
  __syncthreads();
  if (tid < 32) {
    s[tid] += s[tid + 32];
    s[tid] += s[tid + 16];
    s[tid] += s[tid + 8];
    s[tid] += s[tid + 4];
    s[tid] += s[tid + 2];
    s[tid] += s[tid + 1]; // BUG race
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}
