%grid 2,2
%block 16,16
%launch matmul(A=rand(1024), B=rand(1024), C=zeros(1024), n=32)
// Tiled matrix multiply without the second barrier: the next tile is loaded
// while other threads still read the current one.
#define T 16
extern "C" __global__ void matmul(const float* A, const float* B, float* C, int n) {
  __shared__ float As[T][T], Bs[T][T];
  int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < n / T; t++) {
    As[threadIdx.y][threadIdx.x] = A[row * n + t * T + threadIdx.x]; // BUG race
    Bs[threadIdx.y][threadIdx.x] = B[(t * T + threadIdx.y) * n + col]; // BUG race
    __syncthreads();
    for (int k = 0; k < T; k++) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x]; // BUG race,order_dependence
  }
  C[row * n + col] = acc;
}
