%grid 1
%block 32
%launch k(in=rand(32), out=zeros(32))
// Lanes 0-15 fetch the value of lane + 16, which does not take part.
extern "C" __global__ void k(const float* in, float* out) {
  unsigned lane = threadIdx.x;
  float v = in[lane];
  if (lane < 16) v = __shfl_sync(0x0000ffffu, v, lane + 16); // BUG warp_sync
  out[lane] = v;
}
