%grid 2
%block 128
%launch softmax(x=rand(256), y=zeros(256))
// Row softmax with a barrier before the slots are reused for the sum.
extern "C" __global__ void softmax(const float* x, float* y) {
  __shared__ float red[4];
  int row = blockIdx.x, t = threadIdx.x;
  float v = x[row * 128 + t];
  float m = v;
  for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
  if ((t & 31) == 0) red[t >> 5] = m;
  __syncthreads();
  m = fmaxf(fmaxf(red[0], red[1]), fmaxf(red[2], red[3]));
  __syncthreads();
  float e = __expf(v - m);
  float s = e;
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
  if ((t & 31) == 0) red[t >> 5] = s;
  __syncthreads();
  s = red[0] + red[1] + red[2] + red[3];
  y[row * 128 + t] = e / s;
}
