%grid 1
%block 64
%launch k(in=rand(64), out=zeros(64), sel=arange(64):i32)
// A local array of which only one element is written, then another is read.
extern "C" __global__ void k(const float* in, float* out, const int* sel) {
  float buf[16];
  int t = threadIdx.x;
  buf[sel[t] % 16] = in[t];
  out[t] = buf[(sel[t] + 1) % 16]; // BUG uninitialized
}
