%grid 1
%block 32
%launch k(in=rand(32), out=zeros(32))
// The member mask names exactly the lanes that shuffle.
extern "C" __global__ void k(const float* in, float* out) {
  unsigned lane = threadIdx.x;
  float v = in[lane];
  if (lane < 16) {
    v += __shfl_down_sync(0x0000ffffu, v, 8, 16);
  }
  out[lane] = v;
}
