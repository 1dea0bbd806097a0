%grid 2,2
%block 16,16
%launch matmul(A=rand(1024), B=rand(1024), C=zeros(1024), n=32)
// Tiled matrix multiply with both barriers.
#define T 16
extern "C" __global__ void matmul(const float* A, const float* B, float* C, int n) {
  __shared__ float As[T][T], Bs[T][T];
  int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < n / T; t++) {
    As[threadIdx.y][threadIdx.x] = A[row * n + t * T + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t * T + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < T; k++) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  C[row * n + col] = acc;
}
