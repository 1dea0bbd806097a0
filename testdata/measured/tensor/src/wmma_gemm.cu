// Course-style tensor-core GEMMs with the wmma API (KernelScope issue 21).
// One warp computes one 16x16 tile of C; blocks of 2x2 warps (blockDim 64x2).
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
using namespace nvcuda;

// C = 2*A*B + 0.5*C: A (M x K) row-major, B given as N x K row-major (col-major K x N), f16 -> f32.
extern "C" __global__ void wmma_gemm(const half* A, const half* B, float* C, int M, int N, int K) {
  int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int warpN = blockIdx.y * blockDim.y + threadIdx.y;
  int row = warpM * 16, col = warpN * 16;
  if (row >= M || col >= N) return;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc, c;
  wmma::fill_fragment(acc, 0.0f);
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(a, A + row * K + k, K);
    wmma::load_matrix_sync(b, B + col * K + k, K);
    wmma::mma_sync(acc, a, b, acc);
  }
  wmma::load_matrix_sync(c, C + row * N + col, N, wmma::mem_row_major);
  for (int i = 0; i < c.num_elements; i++) c.x[i] = 2.0f * acc.x[i] + 0.5f * c.x[i];
  wmma::store_matrix_sync(C + row * N + col, c, N, wmma::mem_row_major);
}

// bf16 -> f32, A and B row-major, C stored column-major.
extern "C" __global__ void wmma_gemm_bf16(const __nv_bfloat16* A, const __nv_bfloat16* B, float* C, int M, int N, int K) {
  int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int warpN = blockIdx.y * blockDim.y + threadIdx.y;
  int row = warpM * 16, col = warpN * 16;
  if (row >= M || col >= N) return;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(a, A + row * K + k, K);
    wmma::load_matrix_sync(b, B + k * N + col, N);
    wmma::mma_sync(acc, a, b, acc);
  }
  wmma::store_matrix_sync(C + col * M + row, acc, M, wmma::mem_col_major);
}

// f16 -> f16 accumulator, A col-major (K x M storage: A[k*M + m]), B row-major.
extern "C" __global__ void wmma_gemm_h(const half* A, const half* B, half* C, int M, int N, int K) {
  int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int warpN = blockIdx.y * blockDim.y + threadIdx.y;
  int row = warpM * 16, col = warpN * 16;
  if (row >= M || col >= N) return;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::col_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, half> acc;
  wmma::fill_fragment(acc, __float2half(0.0f));
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(a, A + k * M + row, M);
    wmma::load_matrix_sync(b, B + k * N + col, N);
    wmma::mma_sync(acc, a, b, acc);
  }
  wmma::store_matrix_sync(C + row * N + col, acc, N, wmma::mem_row_major);
}
