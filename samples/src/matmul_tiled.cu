// C = A * B for n x n row-major matrices (n a multiple of 16). Each block
// stages 16x16 tiles of A and B in shared memory, so every element loaded from
// global memory is used 16 times.
#define T 16
extern "C" __global__ void matmul_tiled(const float* A, const float* B, float* C, int n) {
  __shared__ float a[T][T];
  __shared__ float b[T][T];
  int r = blockIdx.y * T + threadIdx.y;
  int c = blockIdx.x * T + threadIdx.x;
  float sum = 0.0f;
  for (int k0 = 0; k0 < n; k0 += T) {
    a[threadIdx.y][threadIdx.x] = A[r * n + k0 + threadIdx.x];
    b[threadIdx.y][threadIdx.x] = B[(k0 + threadIdx.y) * n + c];
    __syncthreads();
    for (int k = 0; k < T; ++k) sum += a[threadIdx.y][k] * b[k][threadIdx.x];
    __syncthreads();
  }
  C[r * n + c] = sum;
}
