// KernelScope issue 21, timing of the asynchronous copies (scripts/tensor4): device code
// shared by nvcc (scripts/tensor4/harness.cu) and the project's clang path. sm_90a.
#include "tma_kernels.cuh"

#define TS_STAGES 4
#define TS_BW 32  // box width in f32: 128-byte rows (128B swizzle)
#define TS_BH 64  // box height: 8 KB tiles

// tma_stream copies a [rows x cols] f32 tensor (map tin) to another (map tout) through shared
// memory with the TMA only: thread 0 (the producer) loads 32x64 boxes into TS_STAGES buffers
// on full mbarriers (expect_tx), thread 32 (the consumer) waits on full, stores the buffer with
// cp.async.bulk.tensor (bulk_group), waits until it is read (wait_group.read) and arrives on
// empty, which the producer waits on before reusing the buffer. Block b takes tiles b,
// b + gridDim.x, ...; blockDim 64. in and out are the tensors behind the maps (not read: a
// KernelScope cell names them as the maps' buffers).
extern "C" __global__ void __launch_bounds__(64) tma_stream(const __grid_constant__ CUtensorMap tin, const __grid_constant__ CUtensorMap tout, const float* in, float* out, int rows, int cols) {
  __shared__ __align__(1024) float buf[TS_STAGES][TS_BW * TS_BH];
  __shared__ __align__(8) unsigned long long full[TS_STAGES], empty[TS_STAGES];
  int tid = threadIdx.x;
  int tilesX = cols / TS_BW, ntiles = tilesX * (rows / TS_BH);
  if (tid == 0) {
    for (int s = 0; s < TS_STAGES; s++) { ks_bar_init(&full[s], 1); ks_bar_init(&empty[s], 1); }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  int n = 0;
  for (int t = blockIdx.x; t < ntiles; t += gridDim.x) n++;
  if (tid == 0) {
    for (int i = 0; i < n; i++) {
      int t = blockIdx.x + i * gridDim.x, s = i % TS_STAGES;
      int c[2] = {(t % tilesX) * TS_BW, (t / tilesX) * TS_BH};
      if (i >= TS_STAGES) ks_bar_wait(&empty[s], ((i / TS_STAGES) - 1) & 1, 0xffffffffu);
      ks_bar_expect(&full[s], TS_BW * TS_BH * 4);
      ks_tma_load(2, buf[s], &tin, c, &full[s]);
    }
  } else if (tid == 32) {
    for (int i = 0; i < n; i++) {
      int t = blockIdx.x + i * gridDim.x, s = i % TS_STAGES;
      int c[2] = {(t % tilesX) * TS_BW, (t / tilesX) * TS_BH};
      ks_bar_wait(&full[s], (i / TS_STAGES) & 1, 0xffffffffu);
      asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%2, %3}], [%1];" ::"l"(&tout), "r"(ks_smem(buf[s])), "r"(c[0]), "r"(c[1]) : "memory");
      asm volatile("cp.async.bulk.commit_group;" ::: "memory");
      asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
      ks_bar_arrive(&empty[s]);
    }
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  }
}

// tma_lat: one thread times, with clock64, 8 loads of each of the four maps' boxes (1, 4, 8,
// 16 KB; each from a different place of a cold tensor) from issue to the mbarrier wait's
// success, then the store of the box back (to wait_group.read and to wait_group).
// t[(m*8+r)*3 + 0..2] = load, store read, store done cycles.
extern "C" __global__ void tma_lat(const __grid_constant__ CUtensorMap m0, const __grid_constant__ CUtensorMap m1,
                                   const __grid_constant__ CUtensorMap m2, const __grid_constant__ CUtensorMap m3,
                                   const __grid_constant__ CUtensorMap mo, long long* t) {
  __shared__ __align__(1024) float box[32 * 128];
  __shared__ __align__(8) unsigned long long bar;
  if (threadIdx.x != 0) return;
  ks_bar_init(&bar, 1);
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  const CUtensorMap* maps[4] = {&m0, &m1, &m2, &m3};
  const unsigned bytes[4] = {32 * 8 * 4, 32 * 32 * 4, 32 * 64 * 4, 32 * 128 * 4};
  unsigned ph = 0;
  for (int m = 0; m < 4; m++)
    for (int r = 0; r < 8; r++) {
      int c[2] = {(m * 8 + r) * 32, 512 + 128 * r};
      long long t0 = clock64();
      ks_bar_expect(&bar, bytes[m]);
      ks_tma_load(2, box, maps[m], c, &bar);
      while (!ks_bar_wait(&bar, ph, 1)) {}
      long long t1 = clock64();
      ph ^= 1;
      int co[2] = {c[0], c[1]};
      asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%2, %3}], [%1];" ::"l"(&mo), "r"(ks_smem(box)), "r"(co[0]), "r"(co[1]) : "memory");
      asm volatile("cp.async.bulk.commit_group;" ::: "memory");
      asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
      long long t2 = clock64();
      asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
      long long t3 = clock64();
      t[(m * 8 + r) * 3 + 0] = t1 - t0;
      t[(m * 8 + r) * 3 + 1] = t2 - t1;
      t[(m * 8 + r) * 3 + 2] = t3 - t1;
    }
}
