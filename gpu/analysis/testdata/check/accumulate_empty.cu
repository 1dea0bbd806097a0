%grid 2
%block 128
%launch acc(x=rand(256), out=empty(256))
// Accumulates into an output buffer that was never initialised.
extern "C" __global__ void acc(const float* x, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] += 2.0f * x[i]; // BUG uninitialized
}
