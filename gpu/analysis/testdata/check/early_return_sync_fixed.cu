%grid 2
%block 128
%launch k(in=rand(200), out=zeros(200), n=200)
// Every thread reaches the barrier; only the loads and stores are guarded.
extern "C" __global__ void k(const float* in, float* out, int n) {
  __shared__ float s[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (i < n) out[i] = s[threadIdx.x] + s[threadIdx.x ^ 1];
}
