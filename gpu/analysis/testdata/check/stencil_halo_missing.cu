%grid 4
%block 128
%launch stencil(in=rand(512), out=zeros(512), n=512)
// 1-D stencil that loads the left halo but forgets the right one.
#define B 128
extern "C" __global__ void stencil(const float* in, float* out, int n) {
  __shared__ float t[B + 2];
  int i = blockIdx.x * B + threadIdx.x;
  t[threadIdx.x + 1] = in[i];
  if (threadIdx.x == 0) t[0] = i > 0 ? in[i - 1] : 0.0f;
  __syncthreads();
  out[i] = (t[threadIdx.x] + t[threadIdx.x + 1] + t[threadIdx.x + 2]) / 3.0f; // BUG uninitialized
}
