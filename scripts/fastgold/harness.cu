// harness.cu: runs every kernel of kernels.h on its slice of the inputs
// (made by gen_inputs.py). Usage: ./fg DIR  (reads DIR/in_{x,y,z,e,d}.bin,
// writes DIR/outB.bin where B is the build number given as argv[2]).
#include <cstdio>
#include <string>
#include <vector>
#include "cell.cu"
#define NIN 2048
typedef void (*kfn)(ARGS);
#define K(n, k) n,
static kfn kernels[] = {
#include "kernels.h"
};
#undef K
static bool rd(const std::string &p, void *b, size_t n) {
  FILE *f = fopen(p.c_str(), "rb"); if (!f) return false;
  bool ok = fread(b, 1, n, f) == n; fclose(f); return ok;
}
int main(int argc, char **argv) {
  std::string dir = argv[1];
  int nk = sizeof(kernels) / sizeof(kernels[0]);
  size_t n = (size_t)nk * NIN;
  std::vector<float> hx(n), hy(n), hz(n), ho(2 * n);
  std::vector<int> he(n); std::vector<double> hd(n);
  if (!rd(dir + "/in_x.bin", hx.data(), 4 * n) || !rd(dir + "/in_y.bin", hy.data(), 4 * n) ||
      !rd(dir + "/in_z.bin", hz.data(), 4 * n) || !rd(dir + "/in_e.bin", he.data(), 4 * n) ||
      !rd(dir + "/in_d.bin", hd.data(), 8 * n)) { fprintf(stderr, "read inputs\n"); return 1; }
  float *x, *y, *z, *o; int *e; double *d;
  cudaMalloc(&x, 4 * n); cudaMalloc(&y, 4 * n); cudaMalloc(&z, 4 * n); cudaMalloc(&e, 4 * n);
  cudaMalloc(&d, 8 * n); cudaMalloc(&o, 8 * n); cudaMemset(o, 0, 8 * n);
  cudaMemcpy(x, hx.data(), 4 * n, cudaMemcpyHostToDevice);
  cudaMemcpy(y, hy.data(), 4 * n, cudaMemcpyHostToDevice);
  cudaMemcpy(z, hz.data(), 4 * n, cudaMemcpyHostToDevice);
  cudaMemcpy(e, he.data(), 4 * n, cudaMemcpyHostToDevice);
  cudaMemcpy(d, hd.data(), 8 * n, cudaMemcpyHostToDevice);
  for (int k = 0; k < nk; k++) {
    size_t s = (size_t)k * NIN;
    kernels[k]<<<NIN / 256, 256>>>(x + s, y + s, z + s, e + s, d + s, o + 2 * s);
  }
  if (cudaMemcpy(ho.data(), o, 8 * n, cudaMemcpyDeviceToHost) != cudaSuccess) { fprintf(stderr, "cuda error\n"); return 1; }
  FILE *f = fopen((dir + "/out" + argv[2] + ".bin").c_str(), "wb"); fwrite(ho.data(), 4, 2 * n, f); fclose(f);
  printf("%d kernels x %d inputs\n", nk, NIN);
  return 0;
}
