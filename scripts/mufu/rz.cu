// rz.cu: per bucket (input bits >> 23), how many MUFU results (the .ftz PTX
// forms) equal the function rounded to nearest and rounded toward zero (both
// from a double evaluation). Usage: ./rz > rz_counts.txt
#include <cstdio>
#include <cstdint>
__device__ __forceinline__ uint32_t ftzb(uint32_t x) { return (x & 0x7f800000u) == 0 ? (x & 0x80000000u) : x; }
template <int OP> __global__ void k(unsigned long long *cnt, uint64_t base) {
  uint64_t i = base + blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
  uint32_t xb = (uint32_t)i;
  float a = __uint_as_float(xb), r;
  double x = (double)__uint_as_float(ftzb(xb)), v;
  switch (OP) {
  case 0: asm("rcp.approx.ftz.f32 %0,%1;" : "=f"(r) : "f"(a)); v = 1.0 / x; break;
  case 1: asm("rsqrt.approx.ftz.f32 %0,%1;" : "=f"(r) : "f"(a)); v = 1.0 / sqrt(x); break;
  case 2: asm("sqrt.approx.ftz.f32 %0,%1;" : "=f"(r) : "f"(a)); v = sqrt(x); break;
  case 3: asm("ex2.approx.ftz.f32 %0,%1;" : "=f"(r) : "f"(a)); v = exp2(x); break;
  case 4: asm("lg2.approx.ftz.f32 %0,%1;" : "=f"(r) : "f"(a)); v = log2(x); break;
  default: asm("tanh.approx.f32 %0,%1;" : "=f"(r) : "f"(a)); v = tanh((double)a); break;
  }
  float rn = __double2float_rn(v), rz = __double2float_rz(v);
  uint32_t o = __float_as_uint(r);
  uint32_t brn = OP == 5 ? __float_as_uint(rn) : ftzb(__float_as_uint(rn));
  uint32_t brz = OP == 5 ? __float_as_uint(rz) : ftzb(__float_as_uint(rz));
  bool nan = v != v;
  bool ern = nan ? (r != r) : o == brn, erz = nan ? (r != r) : o == brz;
  unsigned b = xb >> 23;
  if (ern) atomicAdd(&cnt[b * 2], 1ull);
  if (erz) atomicAdd(&cnt[b * 2 + 1], 1ull);
}
int main() {
  typedef void (*kf)(unsigned long long *, uint64_t);
  kf ks[6] = {k<0>, k<1>, k<2>, k<3>, k<4>, k<5>};
  const char *nm[6] = {"rcp.approx.ftz.f32", "rsqrt.approx.ftz.f32", "sqrt.approx.ftz.f32", "ex2.approx.ftz.f32", "lg2.approx.ftz.f32", "tanh.approx.f32"};
  unsigned long long *d, h[1024];
  cudaMalloc(&d, sizeof h);
  printf("# function bucket count(==RN) count(==RZ), of 2^23 each\n");
  for (int f = 0; f < 6; f++) {
    cudaMemset(d, 0, sizeof h);
    for (uint64_t base = 0; base < (1ull << 32); base += 1ull << 30) {
      ks[f]<<<(1u << 30) / 256, 256>>>(d, base);
    }
    cudaDeviceSynchronize();
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    for (int b = 0; b < 512; b++) printf("%s %d %llu %llu\n", nm[f], b, h[2 * b], h[2 * b + 1]);
  }
  return 0;
}
