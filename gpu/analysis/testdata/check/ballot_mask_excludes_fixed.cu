%grid 1
%block 32
%launch k(in=rand(32), out=zeros(32):u32)
// The member mask names the voting lanes.
extern "C" __global__ void k(const float* in, unsigned* out) {
  unsigned lane = threadIdx.x;
  unsigned b = 0;
  if (lane < 16) b = __ballot_sync(0x0000ffffu, in[lane] > 0.5f);
  out[lane] = b;
}
