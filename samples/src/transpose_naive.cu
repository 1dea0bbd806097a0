// Transpose through a 32x32 shared-memory tile. Both global accesses are
// coalesced, but the tile is read down a column: the 32 lanes of a warp hit
// addresses 128 bytes apart, all in the same bank, a 32-way bank conflict.
#define TILE 32
#define ROWS 8
extern "C" __global__ void transpose_naive(const float* in, float* out, int width, int height) {
  __shared__ float tile[TILE][TILE];
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
