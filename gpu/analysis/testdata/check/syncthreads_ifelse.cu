%grid 1
%block 128
%launch k(in=rand(128), out=zeros(128))
// Each half of the block waits at its own __syncthreads().
extern "C" __global__ void k(const float* in, float* out) {
  __shared__ float s[128];
  unsigned tid = threadIdx.x;
  if (tid < 64) {
    s[tid] = in[tid] * 2.0f;
    __syncthreads(); // BUG barrier_divergence
  } else {
    s[tid] = in[tid] + 1.0f;
    __syncthreads(); // BUG barrier_divergence
  }
  out[tid] = s[127 - tid];
}
