// KernelScope issue 21 point 5 (scripts/cluster5): what a release cluster arrival costs after
// stores. sm_90. Each block of a cluster of 2 runs `iters` steps; thread 0 of each block
// records milli-cycles per step (clock64). Modes:
//   0: barrier.cluster.arrive.release + wait alone
//   1: st.shared::cluster of one word per thread into the peer block, then arrive.release + wait
//   2: st.global of one word per thread, then arrive.release + wait
//   3: st.shared::cluster into the peer, then arrive.relaxed + wait
//   4: st.shared::cta (own block), then arrive.release + wait
//   5: arrive.relaxed + wait alone
//   6: atom.shared::cluster.add into the peer (result unused), then arrive.release + wait
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

extern "C" __global__ void cl_stbar(long long* out, unsigned* g, int iters, int mode) {
  __shared__ unsigned buf[128];
  unsigned t = threadIdx.x, rank, n;
  asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
  buf[t] = 0;
  asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
  unsigned own = (unsigned)__cvta_generic_to_shared(&buf[t]), peer;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(peer) : "r"(own), "r"((rank + 1) % n));
  unsigned* gp = g + blockIdx.x * blockDim.x + t;
  long long t0 = clock64();
  for (int i = 0; i < iters; i++) {
    switch (mode) {
      case 1: asm volatile("st.shared::cluster.u32 [%0], %1;" ::"r"(peer), "r"(i) : "memory"); break;
      case 2: asm volatile("st.global.u32 [%0], %1;" ::"l"(gp), "r"(i) : "memory"); break;
      case 3: asm volatile("st.shared::cluster.u32 [%0], %1;" ::"r"(peer), "r"(i) : "memory"); break;
      case 4: asm volatile("st.shared::cta.u32 [%0], %1;" ::"r"(own), "r"(i) : "memory"); break;
      case 6: asm volatile("red.shared::cluster.add.u32 [%0], %1;" ::"r"(peer), "r"(i) : "memory"); break;
    }
    if (mode == 3 || mode == 5) {
      asm volatile("barrier.cluster.arrive.relaxed.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
    } else {
      asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
    }
  }
  long long t1 = clock64();
  if (t == 0) out[blockIdx.x] = (t1 - t0) * 1000 / iters;
  asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
}

int main() {
  long long* d; unsigned* g;
  CK(cudaMalloc(&d, 64 * 8)); CK(cudaMalloc(&g, 8 * 128 * 4));
  const char* names[] = {"release alone", "st.shared::cluster peer + release", "st.global + release",
                         "st.shared::cluster peer + relaxed", "st.shared::cta own + release", "relaxed alone",
                         "red.shared::cluster peer + release"};
  for (int rep = 0; rep < 2; rep++)
  for (int mode = 0; mode < 7; mode++) {
    int iters = 1000;
    void* args[] = {&d, &g, &iters, &mode};
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(8); cfg.blockDim = dim3(128);
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = 2; at[0].val.clusterDim.y = 1; at[0].val.clusterDim.z = 1;
    cfg.attrs = at; cfg.numAttrs = 1;
    CK(cudaLaunchKernelExC(&cfg, (const void*)cl_stbar, args));
    CK(cudaDeviceSynchronize());
    long long v[8];
    CK(cudaMemcpy(v, d, 64, cudaMemcpyDeviceToHost));
    printf("cl_stbar rep %d mode %d (%s), 8x128 cluster 2: cycles per step", rep, mode, names[mode]);
    for (int i = 0; i < 8; i++) printf(" %.2f", v[i] / 1000.0);
    printf("\n");
  }
  return 0;
}
