%grid 2
%block 128
%launch k(in=rand(200), out=zeros(200), n=200)
// Threads past the end return before the block's __syncthreads().
extern "C" __global__ void k(const float* in, float* out, int n) {
  __shared__ float s[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return; // clang merges the returns into one exit at the closing brace
  s[threadIdx.x] = in[i];
  __syncthreads(); // BUG barrier_divergence
  out[i] = s[threadIdx.x] + s[threadIdx.x ^ 1];
}
