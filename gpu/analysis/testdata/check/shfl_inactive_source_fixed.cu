%grid 1
%block 32
%launch k(in=rand(32), out=zeros(32))
// Every lane shuffles; lanes 0-15 keep the value of lane + 16.
extern "C" __global__ void k(const float* in, float* out) {
  unsigned lane = threadIdx.x;
  float v = in[lane];
  float w = __shfl_sync(0xffffffffu, v, (lane + 16) % 32);
  if (lane < 16) v = w;
  out[lane] = v;
}
