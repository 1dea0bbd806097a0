%grid 1
%block 256
%launch k(in=rand(256), out=zeros(256))
// A __syncthreads() inside if (tid < 32): the other warps never reach it.
extern "C" __global__ void k(const float* in, float* out) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  if (tid < 32) {
    s[tid] = in[tid];
    __syncthreads(); // BUG barrier_divergence
    out[tid] = s[(tid + 1) % 32];
  }
}
