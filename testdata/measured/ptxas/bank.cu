// Bank-conflict study (issue 14 point 3): conflict-free shared accesses (a 16x16 tile as in
// matmul_tiled), with and without concurrent global traffic through L1, to see what makes
// Nsight Compute's l1tex__data_bank_conflicts_* nonzero on conflict-free-looking code at scale.
// Grid 64x64 x block 16x16 (as matmul_tiled_1024), ITERS loop trips.
#include <cuda_runtime.h>
#define T 16
extern "C" __global__ void bank_smem_only(float* out, int iters) {
  __shared__ float As[T][T], Bs[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  float acc = 0;
  for (int it = 0; it < iters; ++it) {
    As[ty][tx] = acc + tx; Bs[ty][tx] = acc - ty;
    __syncthreads();
    for (int k = 0; k < T; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  out[(blockIdx.y * gridDim.x + blockIdx.x) * 256 + ty * 16 + tx] = acc;
}
// Same, but each trip also loads two global values that miss L1 (streamed, cached in L1 = .ca default).
extern "C" __global__ void bank_smem_gld(const float* A, float* out, int iters, int N) {
  __shared__ float As[T][T], Bs[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  float acc = 0;
  for (int it = 0; it < iters; ++it) {
    As[ty][tx] = A[row * N + (it * T + tx) % N]; Bs[ty][tx] = A[((it * T + ty) % N) * N + col];
    __syncthreads();
    for (int k = 0; k < T; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  out[row * N + col] = acc;
}
// Same with loads that bypass L1 (ld.global.cg): no L1 data-bank fills.
extern "C" __global__ void bank_smem_gld_cg(const float* A, float* out, int iters, int N) {
  __shared__ float As[T][T], Bs[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  float acc = 0;
  for (int it = 0; it < iters; ++it) {
    As[ty][tx] = __ldcg(&A[row * N + (it * T + tx) % N]); Bs[ty][tx] = __ldcg(&A[((it * T + ty) % N) * N + col]);
    __syncthreads();
    for (int k = 0; k < T; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  out[row * N + col] = acc;
}
// Global loads into registers (not into shared) in the same trip as conflict-free shared traffic.
extern "C" __global__ void bank_smem_plus_gld(const float* A, float* out, int iters, int N) {
  __shared__ float As[T][T], Bs[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  float acc = 0, g = 0;
  for (int it = 0; it < iters; ++it) {
    g += A[row * N + (it * T + tx) % N];
    As[ty][tx] = acc + tx; Bs[ty][tx] = acc - ty;
    __syncthreads();
    for (int k = 0; k < T; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  out[row * N + col] = acc + g;
}
