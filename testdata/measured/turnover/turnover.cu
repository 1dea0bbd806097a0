// KernelScope calibration: block turnover on an SM (session 7). Each block records the SM it ran on
// and clock64() at its first instruction and after its last barrier (thread 0).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
__global__ void rec(long long* t, int* sm, float* a, const float* b, int n, int work) {
  extern __shared__ float pad[];
  long long s = clock64();
  unsigned id; asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (work == 1 && i < n) a[i] = b[i] + 1.0f;
  if (work == 2 && threadIdx.x == 0) pad[0] = 0;
  __syncthreads();
  long long e = clock64();
  if (threadIdx.x == 0) { t[2 * blockIdx.x] = s; t[2 * blockIdx.x + 1] = e; sm[blockIdx.x] = id; }
}
static void run(const char* name, int grid, int block, int smem, int work, int resident) {
  int n = grid * block;
  long long* t; int* sm; float *a, *b;
  cudaMalloc(&t, 16LL * grid); cudaMalloc(&sm, 4LL * grid); cudaMalloc(&a, 4LL * n); cudaMalloc(&b, 4LL * n);
  cudaMemset(b, 0, 4LL * n);
  cudaFuncSetAttribute(rec, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024);
  for (int rep = 0; rep < 2; rep++) rec<<<grid, block, smem>>>(t, sm, a, b, n, work);
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) { printf("%s: %s\n", name, cudaGetErrorString(err)); return; }
  std::vector<long long> ht(2LL * grid); std::vector<int> hs(grid);
  cudaMemcpy(ht.data(), t, 16LL * grid, cudaMemcpyDeviceToHost); cudaMemcpy(hs.data(), sm, 4LL * grid, cudaMemcpyDeviceToHost);
  std::vector<std::vector<long long>> st(200), en(200);
  std::vector<long long> dur;
  for (int i = 0; i < grid; i++) { st[hs[i]].push_back(ht[2 * i]); en[hs[i]].push_back(ht[2 * i + 1]); dur.push_back(ht[2 * i + 1] - ht[2 * i]); }
  std::vector<long long> gaps, spans, firsts;
  for (int s = 0; s < 200; s++) {
    if (st[s].empty()) continue;
    std::sort(st[s].begin(), st[s].end()); std::sort(en[s].begin(), en[s].end());
    spans.push_back(en[s].back() - st[s].front());
    firsts.push_back(st[s][std::min<size_t>(resident, st[s].size()) - 1] - st[s][0]);
    for (size_t k = resident; k < st[s].size(); k++) gaps.push_back(st[s][k] - en[s][k - resident]);
  }
  auto med = [](std::vector<long long> v) { if (v.empty()) return -1LL; std::sort(v.begin(), v.end()); return v[v.size() / 2]; };
  auto mean = [](const std::vector<long long>& v) { double x = 0; for (auto y : v) x += y; return v.empty() ? -1.0 : x / v.size(); };
  int sms = 0; size_t mx = 0; for (int s = 0; s < 200; s++) if (!st[s].empty()) { sms++; mx = std::max(mx, st[s].size()); }
  printf("%s grid=%d block=%d smem=%d work=%d resident=%d: SMs %d, max blocks/SM %zu, block duration median %lld mean %.1f, "
         "refill gap (start k - end k-resident, same SM) median %lld mean %.1f (n=%zu), first-wave start spread median %lld, per-SM span median %lld\n",
         name, grid, block, smem, work, resident, sms, mx, med(dur), mean(dur), med(gaps), mean(gaps), gaps.size(), med(firsts), med(spans));
  cudaFree(t); cudaFree(sm); cudaFree(a); cudaFree(b);
}
int main() {
  run("one_resident_empty", 132 * 20, 256, 200 * 1024, 2, 1);
  run("one_resident_stream", 132 * 20, 256, 200 * 1024, 1, 1);
  run("one_resident_empty_32", 132 * 20, 32, 200 * 1024, 2, 1);
  run("eight_resident_empty", 65536, 256, 0, 0, 8);
  run("eight_resident_stream", 65536, 256, 0, 1, 8);
  return 0;
}
