// Same-address CAS traces for the contention model (docs/caches.md, "CAS beyond 8 SMs").
// Run by scripts/contention/trace.sh on the H200:
//   trace cas   for each case, one launch of t_casloop (the loop of c_casloop plus a record
//               written after the loop): per success (the value the thread wrote, 0..n-1) the
//               SM, the block, the warp of the block, the lane and the %globaltimer; per thread
//               its number of CAS attempts. One binary file per case (cas_GxB.bin).
//   trace lat   per SM, 64 dependent atomicAdd / atomicCAS on one word by one thread, with
//               clock64 (blocks one at a time, ordered through a flag): the round trip of an
//               uncontended atomic from each SM (lat.csv).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

struct Rec { unsigned sm, block, warp_lane, attempts; unsigned long long t; };

__device__ __forceinline__ unsigned smid() { unsigned s; asm volatile("mov.u32 %0, %%smid;" : "=r"(s)); return s; }
__device__ __forceinline__ unsigned long long gtime() { unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }

__global__ void t_casloop(unsigned* p, Rec* rec) {
  unsigned old = *(volatile unsigned*)p, assumed, n = 0;
  do { assumed = old; old = atomicCAS(p, assumed, assumed + 1); n++; } while (old != assumed);
  unsigned long long t = gtime();
  Rec r; r.sm = smid(); r.block = blockIdx.x; r.warp_lane = threadIdx.x; r.attempts = n; r.t = t;
  rec[assumed] = r;
}

__global__ void t_lat(unsigned* p, volatile unsigned* flag, long long* out) {
  if (threadIdx.x != 0) return;
  while (*flag != blockIdx.x) {}
  unsigned v = 0;
  long long c0 = clock64();
  for (int k = 0; k < 64; k++) v = atomicAdd(p, v & 1);
  long long c1 = clock64();
  for (int k = 0; k < 64; k++) v = atomicCAS(p, v, v + 1);
  long long c2 = clock64();
  out[3 * blockIdx.x] = smid(); out[3 * blockIdx.x + 1] = c1 - c0; out[3 * blockIdx.x + 2] = c2 - c1 + (v == 0xdeadbeef);
  __threadfence();
  *flag = blockIdx.x + 1;
}

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  unsigned* p; CK(cudaMalloc(&p, 1 << 21));
  if (!strcmp(argv[1], "cas")) {
    static const int cases[][2] = {{1, 256}, {8, 64}, {16, 64}, {32, 64}, {66, 64}, {132, 32}, {132, 64}, {264, 64}, {132, 128}};
    Rec* rec; CK(cudaMalloc(&rec, sizeof(Rec) * 16896));
    for (auto& c : cases) {
      int n = c[0] * c[1];
      CK(cudaMemset(p, 0, 256)); CK(cudaMemset(rec, 0xff, sizeof(Rec) * n));
      t_casloop<<<c[0], c[1]>>>(p, rec); CK(cudaDeviceSynchronize()); CK(cudaGetLastError());
      std::vector<Rec> h(n); CK(cudaMemcpy(h.data(), rec, sizeof(Rec) * n, cudaMemcpyDeviceToHost));
      unsigned final_; CK(cudaMemcpy(&final_, p, 4, cudaMemcpyDeviceToHost));
      char name[64]; snprintf(name, sizeof name, "cas_%dx%d.bin", c[0], c[1]);
      FILE* f = fopen(name, "wb"); fwrite(h.data(), sizeof(Rec), n, f); fclose(f);
      unsigned long long tot = 0; for (auto& r : h) tot += r.attempts;
      printf("cas %dx%d final %u attempts %llu span_ns %llu\n", c[0], c[1], final_, tot, h[n - 1].t - h[0].t);
    }
  } else {
    unsigned* flag; CK(cudaMalloc(&flag, 4)); CK(cudaMemset(flag, 0, 4));
    long long* out; CK(cudaMalloc(&out, 3 * 132 * 8));
    CK(cudaMemset(p, 0, 256));
    t_lat<<<132, 32>>>(p, flag, out); CK(cudaDeviceSynchronize()); CK(cudaGetLastError());
    long long h[3 * 132]; CK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    FILE* f = fopen("lat.csv", "w");
    fprintf(f, "block,sm,add_cycles_per_op,cas_cycles_per_op\n");
    for (int b = 0; b < 132; b++) fprintf(f, "%d,%lld,%.1f,%.1f\n", b, h[3 * b], h[3 * b + 1] / 64.0, h[3 * b + 2] / 64.0);
    fclose(f);
    printf("lat done\n");
  }
  return 0;
}
