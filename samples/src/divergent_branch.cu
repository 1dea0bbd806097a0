// Odd and even lanes of a warp take different branches. The warp runs both
// paths one after the other with half its lanes masked off, then reconverges;
// branching on the warp index instead (i / 32) would cost nothing.
extern "C" __global__ void divergent_branch(const float* x, float* y, int iters, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  if (i % 2 == 0) {
    for (int k = 0; k < iters; ++k) v = v * 0.5f + 1.0f;
  } else {
    for (int k = 0; k < iters; ++k) v = v * 2.0f - 1.0f;
  }
  y[i] = v;
}
