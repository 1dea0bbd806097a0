%grid 2,2
%block 32,8
%launch transpose(in=rand(4096), out=zeros(4096), n=64)
// Tiled transpose that reads the tile back transposed without a barrier.
#define T 32
extern "C" __global__ void transpose(const float* in, float* out, int n) {
  __shared__ float tile[T][T + 1];
  int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
  for (int j = 0; j < T; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  x = blockIdx.y * T + threadIdx.x;
  y = blockIdx.x * T + threadIdx.y;
  for (int j = 0; j < T; j += 8) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j]; // BUG race,uninitialized,order_dependence
}
