%grid 2
%block 256
%launch reduce(in=rand(512), out=zeros(2), n=512)
// Tree reduction with a barrier after each step.
extern "C" __global__ void reduce(const float* in, float* out, int n) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  s[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}
