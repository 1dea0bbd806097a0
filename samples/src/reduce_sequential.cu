// Block sum, sequential addressing: at step s the first s threads add the
// element s places above them. Active threads stay contiguous, so whole warps
// fall idle early instead of running with a few active lanes.
#define BLOCK 256
extern "C" __global__ void reduce_sequential(const float* in, float* partial, int n) {
  __shared__ float buf[BLOCK];
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * BLOCK + t;
  buf[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = BLOCK / 2; s > 0; s >>= 1) {
    if (t < s) buf[t] += buf[t + s];
    __syncthreads();
  }
  if (t == 0) partial[blockIdx.x] = buf[0];
}
