%grid 1
%block 32
%launch k(in=rand(32), out=zeros(32):u32)
// Lanes 0-15 vote with a member mask that names lanes 16-31 instead of themselves.
extern "C" __global__ void k(const float* in, unsigned* out) {
  unsigned lane = threadIdx.x;
  unsigned b = 0;
  if (lane < 16) b = __ballot_sync(0xffff0000u, in[lane] > 0.5f); // BUG warp_sync
  out[lane] = b;
}
