// ftz2.cu: .ftz near the smallest normal, second run: f32 mul with normal
// operands (the first run's mul rows had a subnormal operand) and f16 fma with
// and without .ftz over all pairs a in 2^-7*[1,2), b in 2^-8*[1,2).
// Usage: ./ftz2 > ftz2_cases.txt   (rows: op a b result, hex bits)
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <vector>
static uint64_t s_ = 0x9e3779b97f4a7c15ull;
static uint64_t rnd() { s_ ^= s_ << 13; s_ ^= s_ >> 7; s_ ^= s_ << 17; return s_; }
__global__ void k32(const uint32_t *a, const uint32_t *b, uint32_t *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = __uint_as_float(a[i]), y = __uint_as_float(b[i]), r;
  asm("mul.rn.ftz.f32 %0,%1,%2;" : "=f"(r) : "f"(x), "f"(y)); o[5 * i] = __float_as_uint(r);
  asm("mul.rz.ftz.f32 %0,%1,%2;" : "=f"(r) : "f"(x), "f"(y)); o[5 * i + 1] = __float_as_uint(r);
  asm("mul.rm.ftz.f32 %0,%1,%2;" : "=f"(r) : "f"(x), "f"(y)); o[5 * i + 2] = __float_as_uint(r);
  asm("mul.rp.ftz.f32 %0,%1,%2;" : "=f"(r) : "f"(x), "f"(y)); o[5 * i + 3] = __float_as_uint(r);
  asm("mul.rn.f32 %0,%1,%2;" : "=f"(r) : "f"(x), "f"(y)); o[5 * i + 4] = __float_as_uint(r);
}
__global__ void k16(uint16_t *o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 1 << 20) return;
  unsigned short a = 0x2000 | (i & 1023), b = 0x1c00 | (i >> 10), z = 0, r;  // 2^-7*[1,2), 2^-8*[1,2)
  asm("fma.rn.ftz.f16 %0,%1,%2,%3;" : "=h"(r) : "h"(a), "h"(b), "h"(z)); o[2 * i] = r;
  asm("fma.rn.f16 %0,%1,%2,%3;" : "=h"(r) : "h"(a), "h"(b), "h"(z)); o[2 * i + 1] = r;
}
int main() {
  const int n = 8192;
  std::vector<uint32_t> a(n), b(n);
  const double MN = 0x1p-126;
  for (int k = 0; k < n; k++) {
    uint32_t ab = 0x1f800000u | (uint32_t)(rnd() & 0x7fffff);  // 2^-64 * [1,2)
    float af; memcpy(&af, &ab, 4);
    float bf = (float)(MN / af);
    uint32_t bb; memcpy(&bb, &bf, 4);
    for (;;) { memcpy(&bf, &bb, 4); if ((double)af * bf < MN) break; bb--; }
    bb += (uint32_t)(k % 3) - 1;  // the largest below and its neighbours
    a[k] = ab; b[k] = bb;
  }
  uint32_t *da, *db, *dout; uint16_t *d16;
  cudaMalloc(&da, n * 4); cudaMalloc(&db, n * 4); cudaMalloc(&dout, n * 20); cudaMalloc(&d16, 4 << 20);
  cudaMemcpy(da, a.data(), n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), n * 4, cudaMemcpyHostToDevice);
  k32<<<n / 256, 256>>>(da, db, dout, n);
  k16<<<(1 << 20) / 256, 256>>>(d16);
  std::vector<uint32_t> o(5 * n); std::vector<uint16_t> h(2 << 20);
  cudaMemcpy(o.data(), dout, n * 20, cudaMemcpyDeviceToHost);
  if (cudaMemcpy(h.data(), d16, 4 << 20, cudaMemcpyDeviceToHost) != cudaSuccess) { fprintf(stderr, "cuda error\n"); return 1; }
  const char *nm[5] = {"mul.rn.ftz.f32", "mul.rz.ftz.f32", "mul.rm.ftz.f32", "mul.rp.ftz.f32", "mul.rn.f32"};
  printf("# op a b result (hex bits); f16 rows: exact product within 2^-23 below 2^-14 only\n");
  for (int k = 0; k < n; k++) for (int j = 0; j < 5; j++) printf("%s %08x %08x %08x\n", nm[j], a[k], b[k], o[5 * k + j]);
  for (int i = 0; i < 1 << 20; i++) {
    unsigned a16 = 0x2000 | (i & 1023), b16 = 0x1c00 | (i >> 10);
    // exact product in units of 2^-35: (1024+ma)(1024+mb) * 2^-7-8-20
    double p = (1024.0 + (a16 & 1023)) * (1024.0 + (b16 & 1023)) * 0x1p-35;
    if (p < 0x1p-14 && p >= 0x1p-14 - 0x1p-23) {
      printf("fma.rn.ftz.f16 %04x %04x %04x\n", a16, b16, h[2 * i]);
      printf("fma.rn.f16 %04x %04x %04x\n", a16, b16, h[2 * i + 1]);
    }
  }
  return 0;
}
