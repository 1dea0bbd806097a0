// copybench: times cudaMemcpy (H2D, D2H with pageable and pinned host memory, D2D) and
// cudaMemset on the default stream with cudaEvents, for every power of two from 4 B to 256 MiB.
// Made for gpu/program's copy-time model (copy_times.txt records its output and command).
// Each figure is the median over 5 trials of (event time of R back-to-back copies) / R, with R
// chosen so a trial moves about 64 MiB (at least 1, at most 200 copies), after one warm-up copy.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

enum Kind { H2D_PAGEABLE, H2D_PINNED, D2H_PAGEABLE, D2H_PINNED, D2D, MEMSET, NKINDS };
static const char *names[NKINDS] = {"h2d_pageable", "h2d_pinned", "d2h_pageable", "d2h_pinned", "d2d", "memset"};

static void once(Kind k, void *dev, void *dev2, void *pageable, void *pinned, size_t n) {
  switch (k) {
  case H2D_PAGEABLE: CK(cudaMemcpy(dev, pageable, n, cudaMemcpyHostToDevice)); break;
  case H2D_PINNED: CK(cudaMemcpy(dev, pinned, n, cudaMemcpyHostToDevice)); break;
  case D2H_PAGEABLE: CK(cudaMemcpy(pageable, dev, n, cudaMemcpyDeviceToHost)); break;
  case D2H_PINNED: CK(cudaMemcpy(pinned, dev, n, cudaMemcpyDeviceToHost)); break;
  case D2D: CK(cudaMemcpy(dev2, dev, n, cudaMemcpyDeviceToDevice)); break;
  case MEMSET: CK(cudaMemset(dev, 1, n)); break;
  default: break;
  }
}

int main() {
  const size_t maxn = (size_t)256 << 20;
  void *dev, *dev2, *pinned;
  CK(cudaMalloc(&dev, maxn));
  CK(cudaMalloc(&dev2, maxn));
  CK(cudaMallocHost(&pinned, maxn));
  void *pageable = malloc(maxn);
  memset(pageable, 7, maxn);
  memset(pinned, 7, maxn);
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  printf("# device %s\n", p.name);
  printf("# kind bytes us_per_copy (median of 5 trials) copies_per_trial\n");
  for (int k = 0; k < NKINDS; k++) {
    for (size_t n = 4; n <= maxn; n *= 2) {
      int reps = (int)std::min<size_t>(200, std::max<size_t>(1, ((size_t)64 << 20) / n));
      once((Kind)k, dev, dev2, pageable, pinned, n);
      CK(cudaDeviceSynchronize());
      float t[5];
      for (int tr = 0; tr < 5; tr++) {
        CK(cudaEventRecord(a));
        for (int r = 0; r < reps; r++) once((Kind)k, dev, dev2, pageable, pinned, n);
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        CK(cudaEventElapsedTime(&t[tr], a, b));
      }
      std::sort(t, t + 5);
      printf("%s %zu %.3f %d\n", names[k], n, t[2] * 1000.0 / reps, reps);
      fflush(stdout);
    }
  }
  return 0;
}
