// Course-style warpgroup-MMA GEMM tile (KernelScope issue 21). C = A*B, A (M x K) and
// B (K x N) row-major f16, C f32. A block of one warpgroup (128 threads) computes a 64x64
// tile of C with wgmma.m64n64k16: A is K-major, B is MN-major (imm-trans-b = 1), both
// staged in shared memory in the 128-byte swizzled layout (a 16-byte chunk c of row r is
// stored at chunk c ^ (r % 8)), one 64-wide k slice at a time.
#include <cuda_fp16.h>

__device__ __forceinline__ unsigned long long desc128(const void* p, unsigned lbo, unsigned sbo) {
  unsigned a = (unsigned)__cvta_generic_to_shared(p);
  return (unsigned long long)((a >> 4) & 0x3fff) | (unsigned long long)((lbo >> 4) & 0x3fff) << 16 |
         (unsigned long long)((sbo >> 4) & 0x3fff) << 32 | 1ull << 62;
}

__device__ __forceinline__ int swz128(int row, int byte) { return row * 128 + ((((byte >> 4) ^ row) & 7) << 4) + (byte & 15); }

extern "C" __global__ void __launch_bounds__(128) wgmma_gemm(const half* A, const half* B, float* C, int M, int N, int K) {
  __shared__ __align__(1024) unsigned char As[64 * 128];  // 64 rows (m) of 64 k
  __shared__ __align__(1024) unsigned char Bs[64 * 128];  // 64 rows (k) of 64 n
  int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  int bm = blockIdx.y * 64, bn = blockIdx.x * 64;
  float d[32];
  for (int i = 0; i < 32; i++) d[i] = 0.f;
  for (int k0 = 0; k0 < K; k0 += 64) {
    for (int i = tid; i < 64 * 64; i += 128) {
      int r = i / 64, c = i % 64;
      *(half*)(As + swz128(r, 2 * c)) = A[(bm + r) * K + k0 + c];
      *(half*)(Bs + swz128(r, 2 * c)) = B[(k0 + r) * N + bn + c];
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    for (int kk = 0; kk < 4; kk++) {
      // A: the k16 step starts 32 bytes into each 128-byte row; 8-row groups 1024 bytes apart.
      // B: the k16 step is 16 rows (2048 bytes) down; 8 k rows 1024 bytes apart (SBO).
      unsigned long long da = desc128(As + 32 * kk, 16, 1024), db = desc128(Bs + 2048 * kk, 8192, 1024);
      int scd = k0 > 0 || kk > 0;
      asm volatile(
          "{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
          "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
          "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}, "
          "%32, %33, p, 1, 1, 0, 1;\n}"
          : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
            "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
            "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
            "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
          : "l"(da), "l"(db), "r"(scd));
    }
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    __syncthreads();
  }
  int g = lane / 4, t = lane % 4;
  for (int j = 0; j < 8; j++) {
    int row = bm + 16 * warp + g, col = bn + 8 * j + 2 * t;
    C[row * N + col] = d[4 * j];
    C[row * N + col + 1] = d[4 * j + 1];
    C[(row + 8) * N + col] = d[4 * j + 2];
    C[(row + 8) * N + col + 1] = d[4 * j + 3];
  }
}
