%grid 1
%block 128
%launch k(in=rand(128), out=zeros(128))
// A neighbour's value is read and the own slot overwritten with no barrier
// between: the neighbour may read the new value instead of the old one.
extern "C" __global__ void k(const float* in, float* out) {
  __shared__ float s[128];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  float v = s[(tid + 1) % 128];
  s[tid] = v * 0.5f; // BUG race,order_dependence
  __syncthreads();
  out[tid] = s[tid];
}
