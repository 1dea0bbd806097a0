%grid 1
%block 64
%launch k(in=rand(64), out=zeros(64), sel=arange(64):i32)
// The local array is cleared before use.
extern "C" __global__ void k(const float* in, float* out, const int* sel) {
  float buf[16];
  int t = threadIdx.x;
  for (int j = 0; j < 16; j++) buf[j] = 0.0f;
  buf[sel[t] % 16] = in[t];
  out[t] = buf[(sel[t] + 1) % 16];
}
