// KernelScope issue 21: shared-memory wavefronts and bank conflicts of ldmatrix as Nsight
// Compute counts them (scripts/tensor3). One warp, one launch per variant, in this order:
// for layout in 0..5, x in {1, 2, 4}, trans in {0, 1}. Lane l (of the 8*x lanes that give
// addresses; the others repeat them) points at row (l%8) + 8*((l/8)&1), byte column
// 16*((l/8)>>1), of a row-major tile with the layout's row stride and swizzle:
//   0: stride 128 B; 1: stride 128 B, 128B swizzle; 2: stride 144 B (padded);
//   3: stride 64 B; 4: stride 32 B; 5: stride 64 B, 64B swizzle.
// Each launch runs ITERS ldmatrix per warp. nvcc -arch=sm_90 -o ldsm_probe ldsm_probe.cu
#include <cstdio>
#define ITERS 16

// One kernel for every variant (X, TRANS, LAYOUT uniform arguments), so that a module holds
// one shared array.
extern "C" __global__ void ldsm_k(unsigned* out, int X, int TRANS, int LAYOUT) {
  __shared__ __align__(1024) unsigned short sm[4096];
  int l = threadIdx.x;
  for (int i = l; i < 4096; i += 32) sm[i] = (unsigned short)(i * 7 + 1);
  __syncthreads();
  const int stride = LAYOUT == 2 ? 144 : LAYOUT == 3 || LAYOUT == 5 ? 64 : LAYOUT == 4 ? 32 : 128;
  int li = l % (8 * X), mat = li / 8;
  unsigned a = ((li % 8) + 8 * (mat & 1)) * stride + 16 * (mat >> 1);
  if (LAYOUT == 1) a ^= ((a >> 7) & 7) << 4;
  if (LAYOUT == 5) a ^= ((a >> 7) & 3) << 4;
  unsigned base = (unsigned)__cvta_generic_to_shared(sm) + a;
  unsigned acc = 0;
  for (int it = 0; it < ITERS; it++) {
    unsigned r0 = 0, r1 = 0, r2 = 0, r3 = 0;
    if (X == 1 && !TRANS) asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(base));
    else if (X == 1) asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(base));
    else if (X == 2 && !TRANS) asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(base));
    else if (X == 2) asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(base));
    else if (!TRANS) asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(base));
    else asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(base));
    acc = acc * 3 + (r0 ^ r1 ^ r2 ^ r3);
  }
  out[l] = acc;
}

int main() {
  unsigned* d;
  cudaMalloc(&d, 128);
  const int xs[3] = {1, 2, 4};
  for (int layout = 0; layout < 6; layout++)
    for (int xi = 0; xi < 3; xi++)
      for (int trans = 0; trans < 2; trans++) ldsm_k<<<1, 32>>>(d, xs[xi], trans, layout);
  cudaError_t e = cudaDeviceSynchronize();
  printf("ldsm_probe: 36 launches: %s\n", cudaGetErrorString(e));
  return e != cudaSuccess;
}
