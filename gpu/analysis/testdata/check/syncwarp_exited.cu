%grid 1
%block 32
%launch k(in=rand(32), out=zeros(32))
// Lanes 16-31 return, then the rest wait in a __syncwarp() that names all 32 lanes.
extern "C" __global__ void k(const float* in, float* out) {
  __shared__ float s[32];
  unsigned lane = threadIdx.x;
  if (lane >= 16) return;
  s[lane] = in[lane];
  __syncwarp(); // BUG warp_sync
  out[lane] = s[lane ^ 1];
}
