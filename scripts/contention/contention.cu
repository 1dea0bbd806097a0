// Same-address contention microbenchmarks for the execution-driven timing model
// (docs/design.md, "Execution-driven timing"). Run by scripts/contention/device.sh:
//   contention time   event-timed launches, one CSV row per case (median of 5 after a warm-up)
//   contention ncu    each case launched once, for Nsight Compute
// Which rows calibrate and which validate: testdata/measured/contention/README.md.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

// Every thread increments *p once with a CAS loop (the loop of v_casloop).
__global__ void c_casloop(unsigned* p) {
  unsigned old = *(volatile unsigned*)p, assumed;
  do { assumed = old; old = atomicCAS(p, assumed, assumed + 1); } while (old != assumed);
}
// Every thread adds 1 to *p iters times, using the returned value.
__global__ void c_add(unsigned* p, unsigned* sink, int iters) {
  unsigned r = 0;
  for (int k = 0; k < iters; k++) r += atomicAdd(p, 1u);
  if (r == 0xdeadbeef) sink[threadIdx.x] = r;
}
__global__ void c_fadd(float* p, float* sink, int iters) {
  float r = 0;
  for (int k = 0; k < iters; k++) r += atomicAdd(p, 1.0f);
  if (r == -1.0f) sink[threadIdx.x] = r;
}
// Shared memory: same-word atomicAdd, and a CAS-increment loop on one shared word.
__global__ void c_sadd(unsigned* out, int iters) {
  __shared__ unsigned s;
  if (threadIdx.x == 0) s = 0;
  __syncthreads();
  unsigned r = 0;
  for (int k = 0; k < iters; k++) r += atomicAdd(&s, 1u);
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = s + (r == 0xdeadbeef);
}
__global__ void c_scas(unsigned* out) {
  __shared__ unsigned s;
  if (threadIdx.x == 0) s = 0;
  __syncthreads();
  unsigned old = *(volatile unsigned*)&s, assumed;
  do { assumed = old; old = atomicCAS(&s, assumed, assumed + 1); } while (old != assumed);
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}
__global__ void c_clock(long long* out) {
  long long c0 = clock64(); unsigned long long t0, t1;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do { asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1)); } while (t1 - t0 < 2000000);
  out[0] = clock64() - c0; out[1] = (long long)(t1 - t0);
}

struct Case { const char* kernel; int grid, block, iters; };
static const Case cases[] = {
  {"casloop", 1, 32, 0}, {"casloop", 1, 64, 0}, {"casloop", 1, 128, 0}, {"casloop", 1, 256, 0}, {"casloop", 1, 1024, 0},
  {"casloop", 2, 64, 0}, {"casloop", 4, 64, 0}, {"casloop", 8, 64, 0}, {"casloop", 16, 64, 0}, {"casloop", 32, 64, 0},
  {"casloop", 66, 64, 0}, {"casloop", 132, 32, 0}, {"casloop", 132, 64, 0}, {"casloop", 264, 64, 0}, {"casloop", 132, 128, 0},
  {"add", 1, 32, 16}, {"add", 1, 256, 16}, {"add", 1, 1024, 16}, {"add", 8, 256, 16}, {"add", 132, 64, 16}, {"add", 132, 256, 16},
  {"fadd", 1, 32, 16}, {"fadd", 1, 256, 16}, {"fadd", 132, 64, 16}, {"fadd", 132, 256, 16},
  {"sadd", 1, 32, 64}, {"sadd", 1, 256, 64}, {"sadd", 1, 1024, 64},
  {"scas", 1, 32, 0}, {"scas", 1, 256, 0}, {"scas", 1, 1024, 0},
};

static void launch(const Case& c, void* p, void* sink) {
  if (!strcmp(c.kernel, "casloop")) c_casloop<<<c.grid, c.block>>>((unsigned*)p);
  else if (!strcmp(c.kernel, "add")) c_add<<<c.grid, c.block>>>((unsigned*)p, (unsigned*)sink, c.iters);
  else if (!strcmp(c.kernel, "fadd")) c_fadd<<<c.grid, c.block>>>((float*)p, (float*)sink, c.iters);
  else if (!strcmp(c.kernel, "sadd")) c_sadd<<<c.grid, c.block>>>((unsigned*)sink, c.iters);
  else c_scas<<<c.grid, c.block>>>((unsigned*)sink);
}

int main(int argc, char** argv) {
  bool timing = argc > 1 && !strcmp(argv[1], "time");
  void *p, *sink;
  CK(cudaMalloc(&p, 256)); CK(cudaMalloc(&sink, 1 << 20));
  if (timing) {
    long long* ck; CK(cudaMalloc(&ck, 16));
    c_clock<<<1, 1>>>(ck); long long h[2]; CK(cudaMemcpy(h, ck, 16, cudaMemcpyDeviceToHost));
    double ghz = (double)h[0] / (double)h[1];
    printf("# SM clock %.4f GHz (clock64 %lld cycles over %lld ns of globaltimer)\n", ghz, h[0], h[1]);
    printf("kernel,grid,block,iters,threads,result,expected,best_us,median_us,median_cycles\n");
    cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
    for (const Case& c : cases) {
      std::vector<float> t;
      unsigned result = 0;
      for (int rep = 0; rep < 6; rep++) {
        CK(cudaMemset(p, 0, 256));
        CK(cudaEventRecord(a)); launch(c, p, sink); CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b));
        CK(cudaGetLastError());
        float ms; CK(cudaEventElapsedTime(&ms, a, b));
        if (rep > 0) t.push_back(ms * 1000);
        if (strcmp(c.kernel, "sadd") && strcmp(c.kernel, "scas")) CK(cudaMemcpy(&result, p, 4, cudaMemcpyDeviceToHost));
        else CK(cudaMemcpy(&result, sink, 4, cudaMemcpyDeviceToHost));
      }
      std::sort(t.begin(), t.end());
      long long n = (long long)c.grid * c.block;
      long long expect = !strcmp(c.kernel, "casloop") ? n : !strcmp(c.kernel, "scas") ? c.block : !strcmp(c.kernel, "sadd") ? (long long)c.block * c.iters : n * c.iters;
      if (!strcmp(c.kernel, "fadd")) { float f; memcpy(&f, &result, 4); result = (unsigned)f; }
      printf("%s,%d,%d,%d,%lld,%u,%lld,%.2f,%.2f,%.0f\n", c.kernel, c.grid, c.block, c.iters, n, result, expect, t[0], t[t.size() / 2], t[t.size() / 2] * 1e3 * ghz);
    }
  } else {
    for (const Case& c : cases) {
      CK(cudaMemset(p, 0, 256));
      launch(c, p, sink); CK(cudaDeviceSynchronize());
      printf("%s grid=%d block=%d iters=%d\n", c.kernel, c.grid, c.block, c.iters);
    }
  }
  return 0;
}
