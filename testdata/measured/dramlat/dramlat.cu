// DRAM latency by access locality (issue 14): one thread follows a chain of
// dependent loads, p[j] giving the next index, and times it with clock64().
// Before each cold run a 256 MB buffer is written, which evicts the L2 (50 MB);
// a warm run repeats the chain without that. Patterns: a fixed stride of S bytes
// (128 B .. 64 KB) over fresh lines, and a random order of the lines of a
// footprint of F bytes (32 MB, 1 GB). Made by run.sh on the H200.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <random>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void chase(const unsigned* __restrict__ p, unsigned start, int n, unsigned* out, long long* cyc) {
  unsigned j = start;
  j = p[j];  // the first load (and its TLB miss) outside the timed part
  long long t0 = clock64();
  for (int k = 0; k < n; k++) j = p[j];
  long long t1 = clock64();
  out[0] = j;
  cyc[0] = t1 - t0;
}

int main() {
  const size_t big = size_t(1) << 30;        // 1 GB of chain
  const size_t words = big / 4;
  unsigned *p, *out; long long* cyc; char* flush;
  CK(cudaMalloc(&p, big)); CK(cudaMalloc(&out, 4)); CK(cudaMalloc(&cyc, 8));
  CK(cudaMalloc(&flush, size_t(256) << 20));
  std::vector<unsigned> h(words, 0);
  const int n = 2048;
  auto run = [&](const char* name, unsigned start, bool cold) {
    if (cold) { CK(cudaMemset(flush, 1, size_t(256) << 20)); CK(cudaDeviceSynchronize()); }
    chase<<<1, 1>>>(p, start, n, out, cyc);
    CK(cudaDeviceSynchronize());
    long long c; CK(cudaMemcpy(&c, cyc, 8, cudaMemcpyDeviceToHost));
    printf("%s %s %.1f\n", name, cold ? "cold" : "warm", double(c) / n);
  };
  // strided chains: word i -> i + S/4, each in its own region of the buffer
  const size_t strides[] = {128, 256, 512, 1024, 4096, 65536};
  for (size_t s : strides) {
    std::fill(h.begin(), h.end(), 0u);
    const size_t w = s / 4;
    for (size_t k = 0; k <= size_t(n) + 1 && (k + 1) * w < words; k++) h[k * w] = unsigned((k + 1) * w);
    CK(cudaMemcpy(p, h.data(), big, cudaMemcpyHostToDevice));
    char name[64]; snprintf(name, sizeof name, "stride_%zu", s);
    run(name, 0, true); run(name, 0, true); run(name, 0, false);
  }
  // random order of the lines of a footprint
  const size_t foots[] = {size_t(32) << 20, big};
  std::mt19937_64 rng(7);
  for (size_t f : foots) {
    std::fill(h.begin(), h.end(), 0u);
    const size_t lines = f / 128;
    std::vector<unsigned> ord(lines);
    for (size_t i = 0; i < lines; i++) ord[i] = unsigned(i);
    std::shuffle(ord.begin(), ord.end(), rng);
    for (size_t i = 0; i < lines; i++) h[size_t(ord[i]) * 32] = ord[(i + 1) % lines] * 32u;
    CK(cudaMemcpy(p, h.data(), big, cudaMemcpyHostToDevice));
    char name[64]; snprintf(name, sizeof name, "random_%zuMB", f >> 20);
    run(name, ord[0] * 32u, true); run(name, ord[0] * 32u, true); run(name, ord[0] * 32u, false);
  }
  return 0;
}
