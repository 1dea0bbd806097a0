// dump.cu: raw outputs of chosen buckets of the .approx special functions
// (issue 18, fourth run). A bucket is the 2^23 f32 inputs with one sign and
// biased exponent (bits >> 23). Usage: ./dump OUTDIR fn:bucket ...
// with fn one of sin cos lg2 tanh ex2; writes OUTDIR/<fn>_<bucket>.u32
// (2^23 little-endian u32 outputs, input order).
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void k(int op, uint32_t base, uint32_t *out) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= (1u << 23)) return;
  float a = __uint_as_float(base + i), r;
  switch (op) {
  case 0: asm("sin.approx.f32 %0, %1;" : "=f"(r) : "f"(a)); break;
  case 1: asm("cos.approx.f32 %0, %1;" : "=f"(r) : "f"(a)); break;
  case 2: asm("lg2.approx.f32 %0, %1;" : "=f"(r) : "f"(a)); break;
  case 3: asm("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(a)); break;
  default: asm("ex2.approx.f32 %0, %1;" : "=f"(r) : "f"(a)); break;
  }
  out[i] = __float_as_uint(r);
}

int main(int argc, char **argv) {
  const char *names[] = {"sin", "cos", "lg2", "tanh", "ex2"};
  uint32_t *d;
  CK(cudaMalloc(&d, 4u << 23));
  std::vector<uint32_t> h(1u << 23);
  for (int a = 2; a < argc; a++) {
    char fn[16]; int b;
    if (sscanf(argv[a], "%15[a-z0-9]:%d", fn, &b) != 2 || b < 0 || b > 511) { fprintf(stderr, "bad arg %s\n", argv[a]); return 1; }
    int op = -1;
    for (int j = 0; j < 5; j++) if (!strcmp(fn, names[j])) op = j;
    if (op < 0) { fprintf(stderr, "bad fn %s\n", fn); return 1; }
    k<<<(1u << 23) / 256, 256>>>(op, (uint32_t)b << 23, d);
    CK(cudaGetLastError());
    CK(cudaMemcpy(h.data(), d, 4u << 23, cudaMemcpyDeviceToHost));
    char p[512]; snprintf(p, sizeof p, "%s/%s_%03d.u32", argv[1], fn, b);
    FILE *f = fopen(p, "wb");
    if (!f || fwrite(h.data(), 4, h.size(), f) != h.size()) { fprintf(stderr, "write %s failed\n", p); return 1; }
    fclose(f);
  }
  return 0;
}
