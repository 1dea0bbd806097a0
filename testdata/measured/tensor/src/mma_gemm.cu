// Course-style tensor-core GEMM with ldmatrix and mma.sync (KernelScope issue 21).
// C = A*B, A (M x K) and B (K x N) row-major f16, C f32. A block of 4 warps computes
// a 32x32 tile, each warp 16x16 as two m16n8k16 MMAs per 16-wide k step.
#include <cuda_fp16.h>
#define BM 32
#define BN 32
#define BK 16
#define PAD 8

extern "C" __global__ void mma_gemm(const half* A, const half* B, float* C, int M, int N, int K) {
  __shared__ __align__(16) half As[BM][BK + PAD];
  __shared__ __align__(16) half Bs[BK][BN + PAD];
  int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
  int wm = (warp / 2) * 16, wn = (warp % 2) * 16;
  float acc[2][4] = {};
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = tid; i < BM * BK; i += blockDim.x) As[i / BK][i % BK] = A[(bm + i / BK) * K + k0 + i % BK];
    for (int i = tid; i < BK * BN; i += blockDim.x) Bs[i / BN][i % BN] = B[(k0 + i / BN) * N + bn + i % BN];
    __syncthreads();
    unsigned a[4];
    unsigned sa = (unsigned)__cvta_generic_to_shared(&As[wm + lane % 16][(lane / 16) * 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3]) : "r"(sa));
    for (int j = 0; j < 2; j++) {
      unsigned b0, b1;
      unsigned sb = (unsigned)__cvta_generic_to_shared(&Bs[lane % 16][wn + 8 * j]);
      asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(b0), "=r"(b1) : "r"(sb));
      asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                   : "+f"(acc[j][0]), "+f"(acc[j][1]), "+f"(acc[j][2]), "+f"(acc[j][3])
                   : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
    }
    __syncthreads();
  }
  int g = lane / 4, t = lane % 4;
  for (int j = 0; j < 2; j++) {
    int row = bm + wm + g, col = bn + wn + 8 * j + 2 * t;
    C[row * N + col] = acc[j][0];
    C[row * N + col + 1] = acc[j][1];
    C[(row + 8) * N + col] = acc[j][2];
    C[(row + 8) * N + col + 1] = acc[j][3];
  }
}
