// Device driver for testdata/measured/tensor/src/bulk_copy.cu: reads DIR/gemm/bulk_in.bin,
// runs the bulk-copy pipelines (4 blocks of 128 threads, 8 tiles each) and the mbarrier
// phase probe (1 block of 64), writes DIR/out. nvcc -arch=sm_90 -I SRC -o bulk bulk_main.cu
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <string>
#include "bulk_copy.cu"

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

static void save(const std::string& p, const void* d, size_t n) {
  std::vector<char> h(n);
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(h.data(), d, n, cudaMemcpyDeviceToHost));
  FILE* f = fopen(p.c_str(), "wb");
  fwrite(h.data(), 1, n, f);
  fclose(f);
}

int main(int argc, char** argv) {
  std::string dir = argc > 1 ? argv[1] : ".";
  const int n = 4 * 8 * 1024;
  std::vector<float> h(n);
  FILE* f = fopen((dir + "/gemm/bulk_in.bin").c_str(), "rb");
  if (!f || fread(h.data(), 4, n, f) != (size_t)n) { fprintf(stderr, "bad input\n"); return 1; }
  fclose(f);
  float *in, *out;
  unsigned* r;
  CK(cudaMalloc(&in, n * 4));
  CK(cudaMalloc(&out, n * 4));
  CK(cudaMalloc(&r, 64 * 10 * 4));
  CK(cudaMemcpy(in, h.data(), n * 4, cudaMemcpyHostToDevice));
  CK(cudaMemset(out, 0, n * 4));
  bulk_pipeline<<<4, 128>>>(in, out, 8);
  CK(cudaGetLastError());
  save(dir + "/out/bulk_pipeline.out", out, n * 4);
  CK(cudaMemset(out, 0, n * 4));
  bulk_roundtrip<<<4, 128>>>(in, out, 8);
  CK(cudaGetLastError());
  save(dir + "/out/bulk_roundtrip.out", out, n * 4);
  CK(cudaMemset(r, 0xff, 64 * 10 * 4));
  mbarrier_phases<<<1, 64>>>(r);
  CK(cudaGetLastError());
  save(dir + "/out/mbarrier_phases.out", r, 64 * 10 * 4);
  printf("bulk done\n");
  return 0;
}
