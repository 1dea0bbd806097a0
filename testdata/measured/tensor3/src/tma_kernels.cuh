// KernelScope issue 21, TMA probes (scripts/tensor3): device code shared by nvcc (tma_probe.cu)
// and the project's clang path. Inline PTX so both compilers emit the same instructions. sm_90.
#include <cuda.h>

__device__ __forceinline__ unsigned ks_smem(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }

__device__ __forceinline__ void ks_bar_init(unsigned long long* bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(ks_smem(bar)), "r"(count) : "memory");
}
__device__ __forceinline__ void ks_bar_expect(unsigned long long* bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(ks_smem(bar)), "r"(bytes) : "memory");
}
__device__ __forceinline__ void ks_bar_arrive(unsigned long long* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(ks_smem(bar)) : "memory");
}
// ks_bar_wait waits for the phase of the given parity to complete; gives up after `limit` tries (returns 0).
__device__ __forceinline__ unsigned ks_bar_wait(unsigned long long* bar, unsigned parity, unsigned limit) {
  unsigned ok = 0;
  for (unsigned i = 0; i < limit && !ok; i++) {
    asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
                 : "=r"(ok) : "r"(ks_smem(bar)), "r"(parity) : "memory");
  }
  return ok;
}
__device__ __forceinline__ void ks_tma_load(int rank, void* dst, const void* tm, const int* c, unsigned long long* bar) {
  unsigned d = ks_smem(dst), b = ks_smem(bar);
  switch (rank) {
  case 1: asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];"
                       ::"r"(d), "l"(tm), "r"(c[0]), "r"(b) : "memory"); break;
  case 2: asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                       ::"r"(d), "l"(tm), "r"(c[0]), "r"(c[1]), "r"(b) : "memory"); break;
  case 3: asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];"
                       ::"r"(d), "l"(tm), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(b) : "memory"); break;
  case 4: asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6];"
                       ::"r"(d), "l"(tm), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(b) : "memory"); break;
  default: asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}], [%7];"
                       ::"r"(d), "l"(tm), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(b) : "memory"); break;
  }
}
__device__ __forceinline__ void ks_tma_store(int rank, const void* tm, const int* c, const void* src) {
  unsigned s = ks_smem(src);
  switch (rank) {
  case 1: asm volatile("cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group [%0, {%2}], [%1];" ::"l"(tm), "r"(s), "r"(c[0]) : "memory"); break;
  case 2: asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%2, %3}], [%1];" ::"l"(tm), "r"(s), "r"(c[0]), "r"(c[1]) : "memory"); break;
  default: asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [%0, {%2, %3, %4}], [%1];" ::"l"(tm), "r"(s), "r"(c[0]), "r"(c[1]), "r"(c[2]) : "memory"); break;
  }
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
  asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

#define KS_TILE 16384

// tma_load: block b loads the box at coords[b*6 .. b*6+rank) into shared memory at offset
// coords[b*6+5] (the tile is pre-filled with 0xab bytes), waits on the mbarrier for `bytes`
// transaction bytes, and copies the whole 16 KB tile to out[b]; ok[b] = 1 when the wait completed.
extern "C" __global__ void tma_load(const __grid_constant__ CUtensorMap tm, const int* coords, unsigned char* out, unsigned* ok, int rank, unsigned bytes) {
  __shared__ __align__(1024) unsigned char tile[KS_TILE + 1024];
  __shared__ __align__(8) unsigned long long bar;
  const int* c = coords + blockIdx.x * 6;
  for (int i = threadIdx.x; i < KS_TILE / 4; i += blockDim.x) ((unsigned*)tile)[i] = 0xabababab;
  if (threadIdx.x == 0) ks_bar_init(&bar, 1);
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    ks_bar_expect(&bar, bytes);
    ks_tma_load(rank, tile + c[5], &tm, c, &bar);
  }
  unsigned done = ks_bar_wait(&bar, 0, 1u << 16);
  for (int i = threadIdx.x; i < KS_TILE / 4; i += blockDim.x)
    ((unsigned*)(out + (size_t)blockIdx.x * KS_TILE))[i] = ((unsigned*)tile)[i];
  if (threadIdx.x == 0) ok[blockIdx.x] = done;
}

// tma_load_gptr: tma_load with the tensor map in global memory (a const CUtensorMap* argument).
extern "C" __global__ void tma_load_gptr(const CUtensorMap* tm, const int* coords, unsigned char* out, unsigned* ok, int rank, unsigned bytes) {
  __shared__ __align__(1024) unsigned char tile[KS_TILE];
  __shared__ __align__(8) unsigned long long bar;
  const int* c = coords + blockIdx.x * 6;
  for (int i = threadIdx.x; i < KS_TILE / 4; i += blockDim.x) ((unsigned*)tile)[i] = 0xabababab;
  if (threadIdx.x == 0) ks_bar_init(&bar, 1);
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    ks_bar_expect(&bar, bytes);
    ks_tma_load(rank, tile + c[5], tm, c, &bar);
  }
  unsigned done = ks_bar_wait(&bar, 0, 1u << 16);
  for (int i = threadIdx.x; i < KS_TILE / 4; i += blockDim.x)
    ((unsigned*)(out + (size_t)blockIdx.x * KS_TILE))[i] = ((unsigned*)tile)[i];
  if (threadIdx.x == 0) ok[blockIdx.x] = done;
}

// tma_store: the block fills its tile with src[0..bytes) and stores the box at coords[0..rank)
// (one launch per case, so the stores land in order).
extern "C" __global__ void tma_store(const __grid_constant__ CUtensorMap tm, const int* coords, const unsigned char* src, int rank, unsigned bytes) {
  __shared__ __align__(1024) unsigned char tile[KS_TILE];
  for (int i = threadIdx.x; i < (int)bytes / 4; i += blockDim.x) ((unsigned*)tile)[i] = ((const unsigned*)src)[i];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) ks_tma_store(rank, &tm, coords, tile);
}

// tma_reduce: like tma_store with cp.reduce.async.bulk.tensor.2d (op 0 add, 1 min, 2 max).
extern "C" __global__ void tma_reduce(const __grid_constant__ CUtensorMap tm, const int* coords, const unsigned char* src, int op, unsigned bytes) {
  __shared__ __align__(1024) unsigned char tile[KS_TILE];
  for (int i = threadIdx.x; i < (int)bytes / 4; i += blockDim.x) ((unsigned*)tile)[i] = ((const unsigned*)src)[i];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned s = ks_smem(tile);
    if (op == 0) asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%2, %3}], [%1];" ::"l"(&tm), "r"(s), "r"(coords[0]), "r"(coords[1]) : "memory");
    else if (op == 1) asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.min.tile.bulk_group [%0, {%2, %3}], [%1];" ::"l"(&tm), "r"(s), "r"(coords[0]), "r"(coords[1]) : "memory");
    else asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.max.tile.bulk_group [%0, {%2, %3}], [%1];" ::"l"(&tm), "r"(s), "r"(coords[0]), "r"(coords[1]) : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  }
}

#define KS_STAGES 3
#define KS_BOX 32  // 32 x 32 f32 tiles: 128-byte rows, 128B swizzle

// tma_pipeline: a producer thread (warp 0) streams 32x32 f32 tiles of a [rows x cols] tensor
// through KS_STAGES shared buffers (full/empty mbarriers, parity waits); 4 consumer warps
// undo the 128B swizzle and write out = 3*x + 1 at the tile's place. Block b takes tiles
// b, b + gridDim.x, ...; blockDim 160.
__device__ __forceinline__ void tma_pipeline_body(const CUtensorMap& tm, float* out, int rows, int cols);
extern "C" __global__ void tma_pipeline(const __grid_constant__ CUtensorMap tm, float* out, int rows, int cols) {
  tma_pipeline_body(tm, out, rows, cols);
}
__device__ __forceinline__ void tma_pipeline_body(const CUtensorMap& tm, float* out, int rows, int cols) {
  __shared__ __align__(1024) float buf[KS_STAGES][KS_BOX * KS_BOX];
  __shared__ __align__(8) unsigned long long full[KS_STAGES], empty[KS_STAGES];
  int tid = threadIdx.x, warp = tid / 32;
  int tilesX = cols / KS_BOX, ntiles = tilesX * (rows / KS_BOX);
  if (tid == 0) {
    for (int s = 0; s < KS_STAGES; s++) { ks_bar_init(&full[s], 1); ks_bar_init(&empty[s], 4); }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("prefetch.tensormap [%0];" ::"l"(&tm) : "memory");
  }
  __syncthreads();
  int n = 0;
  for (int t = blockIdx.x; t < ntiles; t += gridDim.x) n++;
  if (warp == 0) {
    if (tid == 0) {
      for (int i = 0; i < n; i++) {
        int t = blockIdx.x + i * gridDim.x, s = i % KS_STAGES;
        int c[2] = {(t % tilesX) * KS_BOX, (t / tilesX) * KS_BOX};
        if (i >= KS_STAGES) ks_bar_wait(&empty[s], ((i / KS_STAGES) - 1) & 1, 0xffffffffu);
        if (i + 1 < n) {
          int t2 = t + gridDim.x;
          int c2[2] = {(t2 % tilesX) * KS_BOX, (t2 / tilesX) * KS_BOX};
          asm volatile("cp.async.bulk.prefetch.tensor.2d.L2.global.tile [%0, {%1, %2}];" ::"l"(&tm), "r"(c2[0]), "r"(c2[1]) : "memory");
        }
        ks_bar_expect(&full[s], KS_BOX * KS_BOX * 4);
        ks_tma_load(2, buf[s], &tm, c, &full[s]);
      }
    }
    return;
  }
  int ct = tid - 32;
  for (int i = 0; i < n; i++) {
    int t = blockIdx.x + i * gridDim.x, s = i % KS_STAGES;
    ks_bar_wait(&full[s], (i / KS_STAGES) & 1, 0xffffffffu);
    int r0 = (t / tilesX) * KS_BOX, c0 = (t % tilesX) * KS_BOX;
    const unsigned char* b = (const unsigned char*)buf[s];
    for (int e = ct; e < KS_BOX * KS_BOX; e += 128) {
      int r = e / KS_BOX, c = e % KS_BOX;
      unsigned o = r * 128 + c * 4;
      o ^= ((o >> 7) & 7) << 4;
      out[(size_t)(r0 + r) * cols + c0 + c] = 3.0f * *(const float*)(b + o) + 1.0f;
    }
    __syncwarp();
    if ((ct & 31) == 0) ks_bar_arrive(&empty[s]);
  }
}
