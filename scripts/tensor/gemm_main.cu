// Device driver for the course-style GEMMs of testdata/measured/tensor/src: reads the
// inputs that scripts/tensor/gen wrote (DIR/gemm), runs each kernel once, writes DIR/out.
// nvcc -arch=sm_90 -I SRC -o gemm scripts/tensor/gemm_main.cu && ./gemm DIR
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <string>
#include "wmma_gemm.cu"
#include "mma_gemm.cu"

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

static std::vector<char> readFile(const std::string& p) {
  FILE* f = fopen(p.c_str(), "rb");
  if (!f) { fprintf(stderr, "cannot open %s\n", p.c_str()); exit(1); }
  std::vector<char> v;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) v.insert(v.end(), buf, buf + n);
  fclose(f);
  return v;
}

static void* dev(const std::vector<char>& h) {
  void* d;
  CK(cudaMalloc(&d, h.size()));
  CK(cudaMemcpy(d, h.data(), h.size(), cudaMemcpyHostToDevice));
  return d;
}

static void save(const std::string& p, void* d, size_t n) {
  std::vector<char> h(n);
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(h.data(), d, n, cudaMemcpyDeviceToHost));
  FILE* f = fopen(p.c_str(), "wb");
  fwrite(h.data(), 1, n, f);
  fclose(f);
}

int main(int argc, char** argv) {
  std::string dir = argc > 1 ? argv[1] : ".";
  const int M = 64, N = 64, K = 64;
  void* a16 = dev(readFile(dir + "/gemm/a_f16.bin"));
  void* b16 = dev(readFile(dir + "/gemm/b_f16.bin"));
  void* abf = dev(readFile(dir + "/gemm/a_bf16.bin"));
  void* bbf = dev(readFile(dir + "/gemm/b_bf16.bin"));
  std::vector<char> c0 = readFile(dir + "/gemm/c_f32.bin");
  void* c = dev(c0);
  dim3 wb(64, 2), wg(M / 32, N / 32);
  wmma_gemm<<<wg, wb>>>((const half*)a16, (const half*)b16, (float*)c, M, N, K);
  CK(cudaGetLastError());
  save(dir + "/out/wmma_gemm.out", c, M * N * 4);
  CK(cudaMemset(c, 0, M * N * 4));
  wmma_gemm_bf16<<<wg, wb>>>((const __nv_bfloat16*)abf, (const __nv_bfloat16*)bbf, (float*)c, M, N, K);
  CK(cudaGetLastError());
  save(dir + "/out/wmma_gemm_bf16.out", c, M * N * 4);
  CK(cudaMemset(c, 0, M * N * 4));
  wmma_gemm_h<<<wg, wb>>>((const half*)a16, (const half*)b16, (half*)c, M, N, K);
  CK(cudaGetLastError());
  save(dir + "/out/wmma_gemm_h.out", c, M * N * 2);
  CK(cudaMemset(c, 0, M * N * 4));
  mma_gemm<<<dim3(N / 32, M / 32), 128>>>((const half*)a16, (const half*)b16, (float*)c, M, N, K);
  CK(cudaGetLastError());
  save(dir + "/out/mma_gemm.out", c, M * N * 4);
  printf("gemms done\n");
  return 0;
}
