%grid 1
%block 64
%launch k(in=rand(64), out=zeros(64))
// The condition splits every warp: odd and even lanes reach different barriers.
extern "C" __global__ void k(const float* in, float* out) {
  __shared__ float s[64];
  unsigned tid = threadIdx.x;
  if (tid & 1) {
    s[tid] = in[tid];
    __syncthreads(); // BUG barrier_divergence
  } else {
    s[tid] = -in[tid];
    __syncthreads(); // BUG barrier_divergence
  }
  out[tid] = s[tid ^ 1];
}
