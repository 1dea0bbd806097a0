// l2probe: the H200's two L2 partitions seen from the SMs (KernelScope, issue 14 point 5).
//   l2probe OUTDIR
// writes into OUTDIR:
//   atom.csv   offset,cycles   from SM 0: one dependent atomicAdd on the word at offset+64 of a
//              1 GiB buffer (1 warm-up, then the mean of 8); offsets 2^b (b = 7..29), 0, 2048
//              random lines of the whole buffer and the 2048 chase lines (below)
//   side.csv   sm,cyclesA,cyclesB  every SM (blocks one at a time): the same at offset 0 (A) and
//              at a line whose home is the other partition from SM 0's view (B)
//   chase.csv  step,sm,hop,offset,cycles  one thread's dependent ld.global.cg chase over 2048
//              random lines of the first 32 MiB (pointer at each line's byte 0), per hop with
//              clock64, in the steps printed to stdout (flushes by reading 256 MiB)
//   store steps: one warp writes each chase line's first 32-byte sector whole (same pointer)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <string>
#include <algorithm>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1); } } while (0)
typedef unsigned long long u64;

__device__ __forceinline__ unsigned smid() { unsigned s; asm volatile("mov.u32 %0, %%smid;" : "=r"(s)); return s; }
__device__ __forceinline__ long long clk() { long long t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) :: "memory"); return t; }
__device__ __forceinline__ bool claim(int target, int* flag) {
  __shared__ int won;
  if (threadIdx.x == 0) won = (int)smid() == target && atomicCAS(flag, 0, 1) == 0;
  __syncthreads();
  return won;
}

__global__ void k_atom(char* base, const u64* offs, int n, int target, int* flag, float* out) {
  if (!claim(target, flag) || threadIdx.x) return;
  for (int i = 0; i < n; i++) {
    unsigned* p = (unsigned*)(base + offs[i] + 64);
    unsigned v = atomicAdd(p, 1);
    long long c0 = clk();
    for (int k = 0; k < 8; k++) v = atomicAdd(p, v & 1);
    long long c1 = clk();
    out[i] = (c1 - c0) / 8.0f + (v == 0xdeadbeef);
  }
}

__device__ float atomLat(unsigned* p) {
  unsigned v = atomicAdd(p, 1);
  long long c0 = clk();
  for (int k = 0; k < 8; k++) v = atomicAdd(p, v & 1);
  long long c1 = clk();
  return (c1 - c0) / 8.0f + (v == 0xdeadbeef);
}

__global__ void k_side(char* base, u64 offA, u64 offB, volatile unsigned* flag, float* out) {
  if (threadIdx.x) return;
  while (*flag != blockIdx.x) {}
  float a = atomLat((unsigned*)(base + offA + 64)), b = atomLat((unsigned*)(base + offB + 64));
  out[3 * blockIdx.x] = smid(); out[3 * blockIdx.x + 1] = a; out[3 * blockIdx.x + 2] = b;
  __threadfence();
  *flag = blockIdx.x + 1;
}

__global__ void k_chase(u64 start, int n, int target, int* flag, unsigned* lat) {
  __shared__ unsigned sl[4096];
  __shared__ u64 sink;
  if (!claim(target, flag) || threadIdx.x) return;
  u64 p = start;
  unsigned sa = (unsigned)__cvta_generic_to_shared(&sink);
  for (int i = 0; i < n; i++) {
    long long c0 = clk();
    u64 q;
    asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(q) : "l"(p) : "memory");
    asm volatile("st.shared.u64 [%0], %1;" :: "r"(sa), "l"(q) : "memory");
    long long c1 = clk();
    sl[i] = (unsigned)(c1 - c0);
    p = q;
  }
  for (int i = 0; i < n; i++) lat[i] = sl[i];
}

// k_store: one warp writes the first 32-byte sector of each chase line whole (pointer, 3 zeros).
__global__ void k_store(char* base, const unsigned* lineOff, int n, int target, int* flag) {
  if (!claim(target, flag) || threadIdx.x >= 32) return;
  int lane = threadIdx.x;
  for (int i = 0; i < n; i++) {
    u64 next = (u64)(base + lineOff[(i + 1) % n]);
    if (lane < 4) asm volatile("st.global.u64 [%0], %1;" :: "l"(base + lineOff[i] + 8 * lane), "l"(lane == 0 ? next : 0ull) : "memory");
  }
}

// k_tlb: touch the last line of every 2 MiB page of [base, base+bytes) from the target SM.
__global__ void k_tlb(char* base, u64 bytes, int target, int* flag, u64* sink) {
  if (!claim(target, flag) || threadIdx.x) return;
  u64 s = 0;
  for (u64 o = (2 << 20) - 128; o < bytes; o += 2 << 20) s += *(volatile u64*)(base + o);
  *sink = s;
}

__global__ void k_flush(const u64* b, u64 n, u64* sink) {
  u64 s = 0;
  for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x) s += b[i];
  if (s == 0x123456789ull) *sink = s;
}

static int* flag;
static void claimed(const char* what, int sm) {
  int f; CK(cudaMemcpy(&f, flag, 4, cudaMemcpyDeviceToHost));
  if (!f) { fprintf(stderr, "%s: no block ran on SM %d\n", what, sm); exit(1); }
}
#define ON(sm, what, ...) do { CK(cudaMemset(flag, 0, 4)); __VA_ARGS__; CK(cudaDeviceSynchronize()); CK(cudaGetLastError()); claimed(what, sm); } while (0)

int main(int argc, char** argv) {
  if (argc < 2) { fprintf(stderr, "usage: l2probe OUTDIR\n"); return 2; }
  std::string out = argv[1];
  const u64 big = 1ull << 30, region = 32ull << 20, flushBytes = 256ull << 20;
  const int nRand = 2048, nChase = 2048, G = 528;
  char* base; CK(cudaMalloc(&base, big));
  u64* fl; CK(cudaMalloc(&fl, flushBytes)); CK(cudaMemset(fl, 1, flushBytes));
  u64* sink; CK(cudaMalloc(&sink, 8));
  CK(cudaMalloc(&flag, 4));
  srand(12345);
  auto rnd = [](u64 m) { return (((u64)rand() << 31) ^ (u64)rand()) % m; };
  // chase lines: distinct random lines of the region, not the last line of a 2 MiB page
  std::vector<unsigned> chase;
  { std::vector<char> used(region / 128, 0);
    while ((int)chase.size() < nChase) {
      u64 l = rnd(region / 128);
      if (used[l] || (l + 1) % ((2 << 20) / 128) == 0) continue;
      used[l] = 1; chase.push_back((unsigned)(l * 128)); } }
  std::vector<u64> offs;
  for (int b = 7; b < 30; b++) offs.push_back(1ull << b);
  offs.push_back(0);
  for (int i = 0; i < nRand; i++) offs.push_back(rnd(big / 128) * 128);
  for (unsigned c : chase) offs.push_back(c);
  int n = offs.size();
  // the chase image: line chase[i] points at chase[i+1]
  { std::vector<u64> img(region / 8, 0);
    for (int i = 0; i < nChase; i++) img[chase[i] / 8] = (u64)(base + chase[(i + 1) % nChase]);
    CK(cudaMemcpy(base, img.data(), region, cudaMemcpyHostToDevice)); }
  u64* dOffs; CK(cudaMalloc(&dOffs, n * 8)); CK(cudaMemcpy(dOffs, offs.data(), n * 8, cudaMemcpyHostToDevice));
  unsigned* dLine; CK(cudaMalloc(&dLine, nChase * 4)); CK(cudaMemcpy(dLine, chase.data(), nChase * 4, cudaMemcpyHostToDevice));
  float* dA; CK(cudaMalloc(&dA, n * 4));
  ON(0, "atom", k_atom<<<G, 32>>>(base, dOffs, n, 0, flag, dA));
  std::vector<float> a(n); CK(cudaMemcpy(a.data(), dA, n * 4, cudaMemcpyDeviceToHost));
  FILE* f = fopen((out + "/atom.csv").c_str(), "w");
  fprintf(f, "offset,cycles\n");
  for (int i = 0; i < n; i++) fprintf(f, "%llu,%.1f\n", offs[i], a[i]);
  fclose(f);
  std::vector<float> s(a); std::sort(s.begin(), s.end());
  float thr = (s[n / 10] + s[n * 9 / 10]) / 2;
  bool nearA = a[23] < thr;  // offset 0
  u64 offB = 0; float latB = 0;
  for (int i = 24; i < n; i++) if ((a[i] < thr) != nearA) { offB = offs[i]; latB = a[i]; break; }
  printf("atom: p10 %.1f p90 %.1f threshold %.1f; offset 0 %s from SM 0 (%.1f); B = %llu (%.1f)\n", s[n / 10], s[n * 9 / 10], thr, nearA ? "near" : "far", a[23], offB, latB);
  unsigned* vflag; CK(cudaMalloc(&vflag, 4)); CK(cudaMemset(vflag, 0, 4));
  float* dS; CK(cudaMalloc(&dS, 3 * 132 * 4));
  // 120 KiB of dynamic shared memory a block: one block an SM
  CK(cudaFuncSetAttribute(k_side, cudaFuncAttributeMaxDynamicSharedMemorySize, 120 << 10));
  k_side<<<132, 32, 120 << 10>>>(base, 0, offB, vflag, dS); CK(cudaDeviceSynchronize()); CK(cudaGetLastError());
  float hs[3 * 132]; CK(cudaMemcpy(hs, dS, sizeof hs, cudaMemcpyDeviceToHost));
  f = fopen((out + "/side.csv").c_str(), "w");
  fprintf(f, "sm,cyclesA,cyclesB\n");
  int smB = -1; bool sm0A = true;
  for (int b = 0; b < 132; b++) if ((int)hs[3 * b] == 0) sm0A = hs[3 * b + 1] < hs[3 * b + 2];
  for (int b = 0; b < 132; b++) {
    fprintf(f, "%d,%.1f,%.1f\n", (int)hs[3 * b], hs[3 * b + 1], hs[3 * b + 2]);
    if (smB < 0 && (hs[3 * b + 1] < hs[3 * b + 2]) != sm0A) smB = (int)hs[3 * b];
  }
  fclose(f);
  printf("side: SM 0 near %s; SM B = %d\n", sm0A ? "A" : "B", smB);
  if (smB < 0) { fprintf(stderr, "no SM on the other side\n"); return 1; }
  unsigned* dL; CK(cudaMalloc(&dL, nChase * 4));
  f = fopen((out + "/chase.csv").c_str(), "w");
  fprintf(f, "step,sm,hop,offset,cycles\n");
  std::vector<unsigned> lat(nChase);
  u64 start = (u64)(base + chase[0]);
  auto flush = [&]() { k_flush<<<1056, 256>>>(fl, flushBytes / 8, sink); CK(cudaDeviceSynchronize()); };
  auto tlb = [&](int sm) { ON(sm, "tlb", k_tlb<<<G, 32>>>(base, region, sm, flag, sink)); };
  auto run = [&](const char* step, int sm) {
    ON(sm, step, k_chase<<<G, 32>>>(start, nChase, sm, flag, dL));
    CK(cudaMemcpy(lat.data(), dL, nChase * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < nChase; i++) fprintf(f, "%s,%d,%d,%u,%u\n", step, sm, i, chase[i], lat[i]);
    std::vector<unsigned> t(lat); std::sort(t.begin(), t.end());
    printf("chase %-16s SM %3d: median %u p10 %u p90 %u\n", step, sm, t[nChase / 2], t[nChase / 10], t[nChase * 9 / 10]);
  };
  auto store = [&](const char* step, int sm) { ON(sm, step, k_store<<<G, 32>>>(base, dLine, nChase, sm, flag)); printf("store %s SM %d\n", step, sm); };
  flush(); tlb(0); tlb(smB);
  run("warmB", smB);
  run("firstA", 0);
  run("againA", 0);
  store("storeB", smB);
  run("afterStoreB_A", 0);
  flush(); tlb(0);
  run("dramA", 0);
  run("againA2", 0);
  flush(); tlb(0); tlb(smB);
  store("storeA", 0);
  run("afterStoreA_A", 0);
  flush(); tlb(0); tlb(smB);
  run("warmA", 0);
  run("firstB", smB);
  fclose(f);
  printf("done\n");
  return 0;
}
