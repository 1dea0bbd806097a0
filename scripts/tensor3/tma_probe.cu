// KernelScope issue 21: the TMA probe's host harness (scripts/tensor3). On the device:
//   nvcc -gencode arch=compute_90a,code=sm_90a -o tma_probe tma_probe.cu -lcuda
//   ./tma_probe DIR GROUP     (GROUP: safe, risky, reduce, pipe or one map's name; writes DIR/out/*)
// Tensor maps are made by cuTensorMapEncodeTiled from tma_cases.h (scripts/tensor3/gen).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include <cuda.h>
#include <cuda_runtime.h>
#include "tma_kernels.cuh"
#include "tma_cases.h"

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

static unsigned hash32(unsigned x) {
  x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16; return x;
}
// fillWords: word i of a map's global tensor (f32 maps: finite values in +-[1, 2)).
static std::vector<unsigned char> fillBytes(int bytes, unsigned seed, bool f32) {
  std::vector<unsigned char> b((bytes + 3) / 4 * 4);
  for (size_t i = 0; i < b.size() / 4; i++) {
    unsigned h = hash32(seed * 0x9E3779B1u ^ (unsigned)(i * 0x85ebca6bu));
    if (f32) h = (h & 0x807fffffu) | 0x3f800000u;
    memcpy(&b[i * 4], &h, 4);
  }
  return b;
}
static void writeFile(const std::string& path, const void* p, size_t n) {
  FILE* f = fopen(path.c_str(), "wb");
  if (!f) { fprintf(stderr, "cannot write %s\n", path.c_str()); exit(1); }
  fwrite(p, 1, n, f);
  fclose(f);
}
static bool encode(const ProbeMap& m, void* base, CUtensorMap* tm) {
  cuuint64_t dims[5], strides[4];
  cuuint32_t box[5], estr[5];
  for (int i = 0; i < 5; i++) { dims[i] = m.dims[i]; box[i] = m.box[i]; estr[i] = m.estr[i]; }
  for (int i = 0; i < 4; i++) strides[i] = m.strides[i];
  CUresult r = cuTensorMapEncodeTiled(tm, (CUtensorMapDataType)m.dtype, m.rank, base, dims, strides, box, estr,
                                      CU_TENSOR_MAP_INTERLEAVE_NONE, (CUtensorMapSwizzle)m.swizzle,
                                      CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                      m.oobNaN ? CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA : CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    const char* s = "?";
    cuGetErrorString(r, &s);
    printf("%s: cuTensorMapEncodeTiled failed: %d %s\n", m.name, (int)r, s);
    return false;
  }
  return true;
}

// runMap runs map m's cases (only case `only` when it is >= 0; outputs then MAP.cK.*).
static void runMap(const char* dir, const ProbeMap& m, int only) {
  std::string stem = std::string(dir) + "/out/" + m.name + (only >= 0 ? ".c" + std::to_string(only) : std::string());
  int first = only >= 0 ? only : 0, ncases = only >= 0 ? 1 : m.ncases;
  bool f32 = m.dtype == 7;
  std::vector<unsigned char> g = fillBytes(m.bufBytes, m.seed, f32);
  unsigned char* dg;
  CK(cudaMalloc(&dg, g.size()));
  CK(cudaMemcpy(dg, g.data(), g.size(), cudaMemcpyHostToDevice));
  CUtensorMap tm;
  if (!encode(m, dg, &tm)) { CK(cudaFree(dg)); return; }
  std::string kind = m.kind;
  int* dc;
  CK(cudaMalloc(&dc, sizeof m.cases));
  CK(cudaMemcpy(dc, m.cases, sizeof m.cases, cudaMemcpyHostToDevice));
  if (kind == "load" || kind == "load_gptr" || kind == "load_risky") {
    unsigned char* dout; unsigned* dok; CUtensorMap* dtm;
    CK(cudaMalloc(&dout, (size_t)ncases * KS_TILE));
    CK(cudaMalloc(&dok, ncases * 4));
    CK(cudaMemset(dok, 0xff, ncases * 4));
    if (kind == "load_gptr") {
      CK(cudaMalloc(&dtm, sizeof tm));
      CK(cudaMemcpy(dtm, &tm, sizeof tm, cudaMemcpyHostToDevice));
      tma_load_gptr<<<ncases, 128>>>(dtm, dc + first * 6, dout, dok, m.rank, m.bytes);
    } else {
      tma_load<<<ncases, 128>>>(tm, dc + first * 6, dout, dok, m.rank, m.bytes);
    }
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { printf("%s: launch failed: %s\n", m.name, cudaGetErrorString(e)); exit(2); }
    std::vector<unsigned char> out((size_t)ncases * KS_TILE);
    std::vector<unsigned> ok(ncases);
    CK(cudaMemcpy(out.data(), dout, out.size(), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(ok.data(), dok, ok.size() * 4, cudaMemcpyDeviceToHost));
    writeFile(stem + ".bin", out.data(), out.size());
    writeFile(stem + ".ok", ok.data(), ok.size() * 4);
    printf("%s%s: %d cases, ok:", m.name, only >= 0 ? ("#" + std::to_string(only)).c_str() : "", ncases);
    for (int i = 0; i < ncases; i++) printf(" %u", ok[i]);
    printf("\n");
  } else {
    unsigned char* dsrc;
    CK(cudaMalloc(&dsrc, KS_TILE));
    for (int k = first; k < first + ncases; k++) {
      std::vector<unsigned char> src = fillBytes(KS_TILE, m.seed << 8 | k, f32);
      CK(cudaMemcpy(dsrc, src.data(), KS_TILE, cudaMemcpyHostToDevice));
      if (kind == "store") tma_store<<<1, 128>>>(tm, dc + k * 6, dsrc, m.rank, m.bytes);
      else tma_reduce<<<1, 128>>>(tm, dc + k * 6, dsrc, m.cases[k][5], m.bytes);
      cudaError_t e = cudaDeviceSynchronize();
      if (e != cudaSuccess) { printf("%s case %d: launch failed: %s\n", m.name, k, cudaGetErrorString(e)); exit(2); }
    }
    CK(cudaMemcpy(g.data(), dg, g.size(), cudaMemcpyDeviceToHost));
    writeFile(stem + ".bin", g.data(), g.size());
    printf("%s%s: %d cases\n", m.name, only >= 0 ? ("#" + std::to_string(only)).c_str() : "", ncases);
  }
  CK(cudaFree(dc));
  CK(cudaFree(dg));
}

static void runPipe(const char* dir) {
  const int rows = 512, cols = 256;
  ProbeMap m = {"P_f32_sw128", "pipe", 7, 4, 2, {cols, rows, 1, 1, 1}, {cols * 4, 1, 1, 1}, {KS_BOX, KS_BOX, 1, 1, 1}, {1, 1, 1, 1, 1}, 3, 0, rows * cols * 4, 99u, 0, {}, 0};
  std::vector<unsigned char> g = fillBytes(m.bufBytes, m.seed, true);
  unsigned char* dg; float* dout;
  CK(cudaMalloc(&dg, g.size()));
  CK(cudaMalloc(&dout, g.size()));
  CK(cudaMemcpy(dg, g.data(), g.size(), cudaMemcpyHostToDevice));
  CK(cudaMemset(dout, 0, g.size()));
  CUtensorMap tm;
  if (!encode(m, dg, &tm)) return;
  tma_pipeline<<<8, 160>>>(tm, dout, rows, cols);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  cudaEvent_t a, b;
  cudaEventCreate(&a); cudaEventCreate(&b);
  cudaEventRecord(a);
  for (int i = 0; i < 20; i++) tma_pipeline<<<8, 160>>>(tm, dout, rows, cols);
  cudaEventRecord(b);
  CK(cudaEventSynchronize(b));
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  std::vector<unsigned char> out(g.size());
  CK(cudaMemcpy(out.data(), dout, out.size(), cudaMemcpyDeviceToHost));
  writeFile(std::string(dir) + "/out/P_f32_sw128.bin", out.data(), out.size());
  printf("P_f32_sw128: %d x %d, 8 blocks x 160 threads, %.2f us per launch\n", rows, cols, ms * 1000 / 20);
}

int main(int argc, char** argv) {
  const char* dir = argc > 1 ? argv[1] : ".";
  std::string group = argc > 2 ? argv[2] : "safe";
  CK(cudaFree(0));
  if (group == "pipe") { runPipe(dir); return 0; }
  int only = -1;
  size_t hash = group.find('#');
  if (hash != std::string::npos) {
    only = atoi(group.c_str() + hash + 1);
    group = group.substr(0, hash);
  }
  for (const ProbeMap& m : probeMaps) {
    std::string k = m.kind;
    bool want = group == m.name || (group == "safe" && (k == "load" || k == "load_gptr" || k == "store")) ||
                (group == "risky" && k == "load_risky") || (group == "reduce" && k == "reduce");
    if (want && only < m.ncases) runMap(dir, m, only);
  }
  return 0;
}
