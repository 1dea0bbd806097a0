// The same transpose with one padding column: rows of the tile are now 33
// floats long, so a column's 32 elements fall in 32 different banks and the
// shared-memory reads need one wavefront instead of 32.
#define TILE 32
#define ROWS 8
extern "C" __global__ void transpose_padded(const float* in, float* out, int width, int height) {
  __shared__ float tile[TILE][TILE + 1];
  int col = blockIdx.x * TILE + threadIdx.x;
  int row = blockIdx.y * TILE + threadIdx.y;
  for (int k = 0; k < TILE; k += ROWS) {
    if (col < width && row + k < height) tile[threadIdx.y + k][threadIdx.x] = in[(row + k) * width + col];
  }
  __syncthreads();
  col = blockIdx.y * TILE + threadIdx.x;
  row = blockIdx.x * TILE + threadIdx.y;
  for (int k = 0; k < TILE; k += ROWS) {
    if (col < height && row + k < width) out[(row + k) * height + col] = tile[threadIdx.x][threadIdx.y + k];
  }
}
