%grid 1
%block 64
%launch k(in=rand(64), out=zeros(64))
// The branch only selects the value; the barrier is outside it.
extern "C" __global__ void k(const float* in, float* out) {
  __shared__ float s[64];
  unsigned tid = threadIdx.x;
  s[tid] = (tid & 1) ? in[tid] : -in[tid];
  __syncthreads();
  out[tid] = s[tid ^ 1];
}
