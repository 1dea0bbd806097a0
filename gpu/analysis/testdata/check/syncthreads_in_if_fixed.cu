%grid 1
%block 256
%launch k(in=rand(256), out=zeros(256))
// The barrier is outside the condition: the whole block reaches it.
extern "C" __global__ void k(const float* in, float* out) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  if (tid < 32) s[tid] = in[tid];
  __syncthreads();
  if (tid < 32) out[tid] = s[(tid + 1) % 32];
}
