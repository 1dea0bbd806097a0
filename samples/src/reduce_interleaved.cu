// Block sum, interleaved addressing: at step s only threads whose index is a
// multiple of 2s work, so every warp keeps issuing instructions with only a few
// active lanes (divergence) until the last step.
#define BLOCK 256
extern "C" __global__ void reduce_interleaved(const float* in, float* partial, int n) {
  __shared__ float buf[BLOCK];
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * BLOCK + t;
  buf[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = 1; s < BLOCK; s *= 2) {
    if (t % (2 * s) == 0) buf[t] += buf[t + s];
    __syncthreads();
  }
  if (t == 0) partial[blockIdx.x] = buf[0];
}
