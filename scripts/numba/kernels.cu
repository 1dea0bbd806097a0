// The four kernels of scripts/bench_numba.sh, in CUDA (numba twins in kernels.py).
#define TILE 16
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

extern "C" __global__ void matmul(const float* A, const float* B, float* C, int n) {
  __shared__ float sA[TILE][TILE];
  __shared__ float sB[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < n / TILE; t++) {
    sA[ty][tx] = A[row * n + t * TILE + tx];
    sB[ty][tx] = B[(t * TILE + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; k++) acc += sA[ty][k] * sB[k][tx];
    __syncthreads();
  }
  C[row * n + col] = acc;
}

extern "C" __global__ void reduce(const float* in, float* out, int n) {
  __shared__ float s[256];
  int tid = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
  s[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (tid < k) s[tid] += s[tid + k];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}

extern "C" __global__ void transpose(const float* in, float* out, int n) {
  __shared__ float t[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  t[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  out[y * n + x] = t[threadIdx.x][threadIdx.y];
}
