// KernelScope issue 21: cluster timing probes (scripts/tensor4). sm_90.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void cl_empty() {}

// cl_chase: block `owner` of a cluster of 2 fills a ring of n u32 indices (stride 33 words)
// in its shared memory; thread 0 of block 0 follows it `steps` times through
// ld.shared::cluster (the owner's shared memory, via mapa) and records cycles per step.
extern "C" __global__ void cl_chase(long long* out, int steps, int owner) {
  __shared__ unsigned ring[4096];
  cg::cluster_group cl = cg::this_cluster();
  for (int i = threadIdx.x; i < 4096; i += blockDim.x) ring[i] = ((i + 33) % 4096) * 4;
  cl.sync();
  if (cl.block_rank() == 0 && threadIdx.x == 0) {
    unsigned base = (unsigned)__cvta_generic_to_shared(ring), rb;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(rb) : "r"(base), "r"(owner));
    unsigned off = 0;
    long long t0 = clock64();
    for (int i = 0; i < steps; i++) {
      unsigned v;
      asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(rb + off) : "memory");
      off = v;
    }
    long long t1 = clock64();
    out[blockIdx.x / 2] = (t1 - t0) * 1000 / steps + (off == 12345678u);  // milli-cycles per step
  }
  cl.sync();
}

// cl_bar: every thread runs iters cluster barriers (barrier.cluster.arrive + wait); thread 0 of
// each block records milli-cycles per barrier. mode 1: __syncthreads() instead.
extern "C" __global__ void cl_bar(long long* out, int iters, int mode) {
  cg::cluster_group cl = cg::this_cluster();
  cl.sync();
  long long t0 = clock64();
  for (int i = 0; i < iters; i++) {
    if (mode == 0) {
      asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
    } else {
      __syncthreads();
    }
  }
  long long t1 = clock64();
  if (threadIdx.x == 0) out[blockIdx.x] = (t1 - t0) * 1000 / iters;
  cl.sync();
}
