%grid 1
%block 128
%launch k(in=rand(128), out=zeros(128))
// Read, barrier, then overwrite.
extern "C" __global__ void k(const float* in, float* out) {
  __shared__ float s[128];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  float v = s[(tid + 1) % 128];
  __syncthreads();
  s[tid] = v * 0.5f;
  __syncthreads();
  out[tid] = s[tid];
}
