%grid 4
%block 64
%launch blur(x=rand(256), n=256)
// An in-place blur: blocks read their neighbours' edge elements, which
// those blocks overwrite.
extern "C" __global__ void blur(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float l = i > 0 ? x[i - 1] : 0.0f;
  float r = i + 1 < n ? x[i + 1] : 0.0f;
  __syncthreads();
  x[i] = (l + x[i] + r) / 3.0f; // BUG race,order_dependence
}
