%grid 1
%block 32
%launch k(in=rand(32), out=zeros(32))
// Half a warp shuffles with a full member mask: lanes 16-31 never join.
extern "C" __global__ void k(const float* in, float* out) {
  unsigned lane = threadIdx.x;
  float v = in[lane];
  if (lane < 16) {
    v += __shfl_down_sync(0xffffffffu, v, 8); // BUG warp_sync
  }
  out[lane] = v;
}
