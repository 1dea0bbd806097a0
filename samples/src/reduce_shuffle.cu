// Block sum with warp shuffles: each warp sums its 32 values in registers with
// __shfl_down_sync (five steps, no shared memory, no barrier), then the first
// warp sums the per-warp results.
#define BLOCK 256
#define WARPS (BLOCK / 32)
__device__ float warp_sum(float v) {
  for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
  return v;
}
extern "C" __global__ void reduce_shuffle(const float* in, float* partial, int n) {
  __shared__ float sums[WARPS];
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * BLOCK + t;
  float v = warp_sum(i < n ? in[i] : 0.0f);
  if (t % 32 == 0) sums[t / 32] = v;
  __syncthreads();
  if (t < 32) {
    v = warp_sum(t < WARPS ? sums[t] : 0.0f);
    if (t == 0) partial[blockIdx.x] = v;
  }
}
