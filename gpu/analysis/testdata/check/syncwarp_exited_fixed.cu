%grid 1
%block 32
%launch k(in=rand(32), out=zeros(32))
// The member mask names only the lanes that remain.
extern "C" __global__ void k(const float* in, float* out) {
  __shared__ float s[32];
  unsigned lane = threadIdx.x;
  if (lane >= 16) return;
  s[lane] = in[lane];
  __syncwarp(0x0000ffffu);
  out[lane] = s[lane ^ 1];
}
