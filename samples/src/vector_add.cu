// Each thread adds one pair of elements. The guard keeps the threads of the
// last block that fall past the end of the arrays from touching memory.
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    c[i] = a[i] + b[i];
  }
}
