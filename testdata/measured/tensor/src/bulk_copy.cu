// Course-style Hopper asynchronous copies (KernelScope issue 21): a two-stage pipeline of
// 4 KB tiles loaded with cp.async.bulk (TMA, no tensor map) completing on mbarriers, and
// the same with the results written back by a shared->global bulk copy; plus an mbarrier
// phase probe. Inline PTX, so nvcc and clang compile the same instructions. sm_90.
#define TILE 1024

__device__ __forceinline__ unsigned smem(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }

__device__ __forceinline__ void bar_init(unsigned long long* bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem(bar)), "r"(count) : "memory");
}
__device__ __forceinline__ unsigned long long bar_arrive(unsigned long long* bar) {
  unsigned long long st;
  asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(st) : "r"(smem(bar)) : "memory");
  return st;
}
__device__ __forceinline__ void bar_arrive_n(unsigned long long* bar, unsigned n) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0], %1;" ::"r"(smem(bar)), "r"(n) : "memory");
}
__device__ __forceinline__ void bar_expect(unsigned long long* bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem(bar)), "r"(bytes) : "memory");
}
__device__ __forceinline__ void bar_complete_tx(unsigned long long* bar, unsigned bytes) {
  asm volatile("mbarrier.complete_tx.shared::cta.b64 [%0], %1;" ::"r"(smem(bar)), "r"(bytes) : "memory");
}
__device__ __forceinline__ unsigned bar_test_parity(unsigned long long* bar, unsigned parity) {
  unsigned ok;
  asm volatile("{\n\t.reg .pred p;\n\tmbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
               : "=r"(ok) : "r"(smem(bar)), "r"(parity) : "memory");
  return ok;
}
__device__ __forceinline__ unsigned bar_test_state(unsigned long long* bar, unsigned long long st) {
  unsigned ok;
  asm volatile("{\n\t.reg .pred p;\n\tmbarrier.test_wait.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
               : "=r"(ok) : "r"(smem(bar)), "l"(st) : "memory");
  return ok;
}
__device__ __forceinline__ void bar_wait(unsigned long long* bar, unsigned parity) {
  unsigned ok;
  do {
    asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
                 : "=r"(ok) : "r"(smem(bar)), "r"(parity) : "memory");
  } while (!ok);
}
__device__ __forceinline__ void bulk_load(void* dst, const void* src, unsigned bytes, unsigned long long* bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
               ::"r"(smem(dst)), "l"(src), "r"(bytes), "r"(smem(bar)) : "memory");
}
__device__ __forceinline__ void bulk_store(void* dst, const void* src, unsigned bytes) {
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(dst), "r"(smem(src)), "r"(bytes) : "memory");
}

// out[i] = 2*in[i] + 1 over tiles of TILE floats per block-iteration, blockDim 128.
extern "C" __global__ void bulk_pipeline(const float* in, float* out, int tilesPerBlock) {
  __shared__ __align__(128) float buf[2][TILE];
  __shared__ __align__(8) unsigned long long bar[2];
  int tid = threadIdx.x;
  const float* src = in + (size_t)blockIdx.x * tilesPerBlock * TILE;
  float* dst = out + (size_t)blockIdx.x * tilesPerBlock * TILE;
  if (tid == 0) {
    bar_init(&bar[0], 1);
    bar_init(&bar[1], 1);
  }
  __syncthreads();
  if (tid == 0) {
    bar_expect(&bar[0], TILE * 4);
    bulk_load(buf[0], src, TILE * 4, &bar[0]);
  }
  for (int t = 0; t < tilesPerBlock; t++) {
    int s = t & 1;
    if (tid == 0 && t + 1 < tilesPerBlock) {
      bar_expect(&bar[s ^ 1], TILE * 4);
      bulk_load(buf[s ^ 1], src + (t + 1) * TILE, TILE * 4, &bar[s ^ 1]);
    }
    bar_wait(&bar[s], (t >> 1) & 1);
    for (int i = tid; i < TILE; i += blockDim.x) dst[t * TILE + i] = 2.0f * buf[s][i] + 1.0f;
    __syncthreads();
  }
}

// The same, results written to shared memory and stored with a bulk copy.
extern "C" __global__ void bulk_roundtrip(const float* in, float* out, int tilesPerBlock) {
  __shared__ __align__(128) float buf[TILE];
  __shared__ __align__(128) float res[TILE];
  __shared__ __align__(8) unsigned long long bar;
  int tid = threadIdx.x;
  const float* src = in + (size_t)blockIdx.x * tilesPerBlock * TILE;
  float* dst = out + (size_t)blockIdx.x * tilesPerBlock * TILE;
  if (tid == 0) bar_init(&bar, 1);
  __syncthreads();
  for (int t = 0; t < tilesPerBlock; t++) {
    if (tid == 0) {
      bar_expect(&bar, TILE * 4);
      bulk_load(buf, src + t * TILE, TILE * 4, &bar);
    }
    bar_wait(&bar, t & 1);
    for (int i = tid; i < TILE; i += blockDim.x) res[i] = buf[i] * buf[i] - 3.0f;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (tid == 0) {
      bulk_store(dst + t * TILE, res, TILE * 4);
      asm volatile("cp.async.bulk.commit_group;" ::: "memory");
      asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    }
    __syncthreads();
  }
  if (tid == 0) asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

// mbarrier phases seen by every thread of one block of 64: r[tid*10 + k].
extern "C" __global__ void mbarrier_phases(unsigned* r) {
  __shared__ __align__(8) unsigned long long bar;
  int tid = threadIdx.x;
  unsigned* o = r + tid * 10;
  if (tid == 0) bar_init(&bar, 64);
  __syncthreads();
  o[0] = bar_test_parity(&bar, 0);  // phase 0 pending: 0
  __syncthreads();
  unsigned long long st = 0;
  if (tid < 32) st = bar_arrive(&bar);
  __syncthreads();
  o[1] = bar_test_parity(&bar, 0);  // 32 arrivals pending: 0
  __syncthreads();
  if (tid >= 32) st = bar_arrive(&bar);
  __syncthreads();
  o[2] = bar_test_parity(&bar, 0);  // phase 0 complete: 1
  o[3] = bar_test_parity(&bar, 1);  // phase 1 pending: 0
  o[4] = bar_test_state(&bar, st);  // the phase this thread arrived on is complete: 1
  __syncthreads();
  if (tid == 0) bar_expect(&bar, 16); else st = bar_arrive(&bar);
  __syncthreads();
  o[5] = bar_test_parity(&bar, 1);  // arrivals done, 16 tx bytes pending: 0
  o[6] = bar_test_state(&bar, st);  // 0 (threads 1..63 arrived on phase 1)
  __syncthreads();
  if (tid == 0) bar_complete_tx(&bar, 16);
  __syncthreads();
  o[7] = bar_test_parity(&bar, 1);  // phase 1 complete: 1
  __syncthreads();
  if (tid == 5) bar_arrive_n(&bar, 64);  // one thread completes phase 2
  __syncthreads();
  o[8] = bar_test_parity(&bar, 0);  // phase 2 (parity 0) complete: 1
  o[9] = bar_test_parity(&bar, 1);  // phase 3 pending: 0
}
