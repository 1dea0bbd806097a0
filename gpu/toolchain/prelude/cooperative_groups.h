// KernelScope: Cooperative Groups (namespace cooperative_groups), written for
// KernelScope from the CUDA C++ Programming Guide's description of the API. Groups
// are built on the warp intrinsics (__shfl_*_sync, __ballot_sync, __match_*_sync,
// __syncwarp) and __syncthreads, so the PTX is what those give.
//
// grid_group::sync() is a grid-wide barrier on the cooperative launch's grid workspace
// (%envreg1:%envreg2, which the simulator provides for <<<..., cooperative>>>): one
// thread per block adds to a counter with release semantics and spins with acquire
// loads until the counter's top bit flips (block 0 adds 0x80000000 - (blocks - 1), the
// others 1). In a launch that is not cooperative the workspace is 0: sync() prints a
// message naming its line and traps, as CUDA's grid_group::sync() traps there.
// cluster_group (this_cluster()) works on thread-block clusters with inline PTX:
// barrier.cluster.arrive/wait, mapa, getctarank and the %cluster_* registers.
#pragma clang system_header
#ifndef KERNELSCOPE_COOPERATIVE_GROUPS_H
#define KERNELSCOPE_COOPERATIVE_GROUPS_H
#include "kernelscope_names_push.h"
#include "kernelscope_prelude.h"

namespace cooperative_groups {
namespace __ks {
static __device__ __forceinline__ unsigned int lane() { return __nvvm_read_ptx_sreg_laneid(); }
static __device__ __forceinline__ unsigned int lanemask_lt() { return __nvvm_read_ptx_sreg_lanemask_lt(); }
static __device__ __forceinline__ unsigned int block_rank() {
  return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}
static __device__ __forceinline__ unsigned int block_size() { return blockDim.x * blockDim.y * blockDim.z; }
// The lane of the n-th (0-based) set bit of mask.
static __device__ __forceinline__ int nth_lane(unsigned int mask, int n) {
  return (int)__fns(mask, 0u, n + 1);
}
// Shuffles of any trivially copyable type, 32 bits at a time.
enum shfl_kind { IDX, UP, DOWN, XOR };
template <class T> static __device__ __forceinline__ T shfl(unsigned int mask, T v, int arg, int width, shfl_kind k) {
  constexpr int W = (sizeof(T) + 3) / 4;
  unsigned int w[W];
  w[W - 1] = 0;
  __builtin_memcpy(w, &v, sizeof(T));
#pragma unroll
  for (int i = 0; i < W; i++) {
    switch (k) {
    case IDX: w[i] = __shfl_sync(mask, w[i], arg, width); break;
    case UP: w[i] = __shfl_up_sync(mask, w[i], (unsigned int)arg, width); break;
    case DOWN: w[i] = __shfl_down_sync(mask, w[i], (unsigned int)arg, width); break;
    default: w[i] = __shfl_xor_sync(mask, w[i], arg, width); break;
    }
  }
  T r;
  __builtin_memcpy(&r, w, sizeof(T));
  return r;
}
// Bits of a warp-wide mask (bit = lane) gathered into bits by rank in group mask g.
static __device__ __forceinline__ unsigned int compress(unsigned int bits, unsigned int g) {
  unsigned int out = 0;
  int r = 0;
  for (unsigned int m = g; m != 0; m &= m - 1, r++) {
    if (bits & m & (0u - m)) out |= 1u << r;
  }
  return out;
}
} // namespace __ks

// The kinds of group, for thread_group's generic operations.
enum class __ks_kind : unsigned int { block, tile, coalesced, grid };

// thread_group: any group, as a value (what a function taking "thread_group g" gets).
class thread_group {
protected:
  __ks_kind kind_;
  unsigned int mask_;  // the warp's lanes in the group (tile, coalesced)
  unsigned int size_;  // tile size for a tile
  __device__ thread_group(__ks_kind k, unsigned int m, unsigned int s) : kind_(k), mask_(m), size_(s) {}

public:
  __device__ unsigned long long size() const {
    switch (kind_) {
    case __ks_kind::block: return __ks::block_size();
    case __ks_kind::tile: return size_;
    case __ks_kind::coalesced: return (unsigned int)__builtin_popcount(mask_);
    default: return (unsigned long long)__ks::block_size() * gridDim.x * gridDim.y * gridDim.z;
    }
  }
  __device__ unsigned long long num_threads() const { return size(); }
  __device__ unsigned long long thread_rank() const {
    switch (kind_) {
    case __ks_kind::block: return __ks::block_rank();
    case __ks_kind::tile: return __ks::block_rank() & (size_ - 1);
    case __ks_kind::coalesced: return (unsigned int)__builtin_popcount(mask_ & __ks::lanemask_lt());
    default: {
      unsigned long long b = (blockIdx.z * gridDim.y + blockIdx.y) * (unsigned long long)gridDim.x + blockIdx.x;
      return b * __ks::block_size() + __ks::block_rank();
    }
    }
  }
  __device__ void sync() const {
    if (kind_ == __ks_kind::block || kind_ == __ks_kind::grid) {
      __syncthreads();
    } else {
      __syncwarp(mask_);
    }
  }
  __device__ unsigned int get_type() const { return (unsigned int)kind_; }
};

// thread_block: the threads of this block.
class thread_block : public thread_group {
  friend __device__ thread_block this_thread_block();
  __device__ thread_block() : thread_group(__ks_kind::block, 0xffffffffu, 0) {}

public:
  __device__ void sync() const { __syncthreads(); }
  __device__ unsigned int thread_rank() const { return __ks::block_rank(); }
  __device__ unsigned int size() const { return __ks::block_size(); }
  __device__ unsigned int num_threads() const { return __ks::block_size(); }
  __device__ dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  __device__ dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  __device__ dim3 dim_threads() const { return dim3(blockDim.x, blockDim.y, blockDim.z); }
  __device__ dim3 group_dim() const { return dim_threads(); }
};
__device__ __forceinline__ thread_block this_thread_block() { return thread_block(); }

// grid_group: every thread of the launch.
class grid_group : public thread_group {
  friend __device__ grid_group this_grid();
  __device__ grid_group() : thread_group(__ks_kind::grid, 0xffffffffu, 0) {}

public:
  __device__ bool is_valid() const { return workspace() != 0; }
  __device__ unsigned long long size() const { return thread_group::size(); }
  __device__ unsigned long long num_threads() const { return size(); }
  __device__ unsigned long long thread_rank() const { return thread_group::thread_rank(); }
  __device__ unsigned long long num_blocks() const { return (unsigned long long)gridDim.x * gridDim.y * gridDim.z; }
  __device__ unsigned long long block_rank() const {
    return (blockIdx.z * gridDim.y + blockIdx.y) * (unsigned long long)gridDim.x + blockIdx.x;
  }
  __device__ dim3 block_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  __device__ dim3 dim_blocks() const { return dim3(gridDim.x, gridDim.y, gridDim.z); }
  __device__ dim3 group_dim() const { return dim_blocks(); }
  // The cooperative launch's grid workspace (0 when the launch is not cooperative).
  static __device__ __forceinline__ unsigned long long workspace() {
    unsigned int hi, lo;
    asm volatile("mov.u32 %0, %%envreg1;" : "=r"(hi));
    asm volatile("mov.u32 %0, %%envreg2;" : "=r"(lo));
    return ((unsigned long long)hi << 32) | lo;
  }
  // A grid-wide barrier (see the top of this file).
  __device__ void sync(const char *file = __builtin_FILE(), unsigned int line = __builtin_LINE()) const {
    unsigned long long ws = workspace();
    if (ws == 0) {
      if (__ks::block_rank() == 0 && blockIdx.x + blockIdx.y + blockIdx.z == 0) {
        printf("%s:%u: grid_group::sync() needs a cooperative launch (cudaLaunchCooperativeKernel; in KernelScope "
               "<<<grid, block, shmem, cooperative>>>)\n",
               file, line);
      }
      __syncthreads(); // ws is the same for every thread: let the message out before any warp traps
      __trap();
    }
    unsigned int *counter = (unsigned int *)(ws + 4);
    __syncthreads();
    if (__ks::block_rank() == 0) {
      unsigned int blocks = gridDim.x * gridDim.y * gridDim.z;
      unsigned int add = (blockIdx.x + blockIdx.y + blockIdx.z == 0) ? 0x80000000u - (blocks - 1u) : 1u;
      unsigned int old, now;
      asm volatile("atom.add.release.gpu.u32 %0, [%1], %2;" : "=r"(old) : "l"(counter), "r"(add) : "memory");
      do {
        asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(now) : "l"(counter) : "memory");
      } while (((old ^ now) & 0x80000000u) == 0);
    }
    __syncthreads();
  }
};
__device__ __forceinline__ grid_group this_grid() { return grid_group(); }

// cluster_group: the blocks of this thread-block cluster (sm_90).
class cluster_group {
  friend __device__ cluster_group this_cluster();
  __device__ cluster_group() {}
  static __device__ __forceinline__ unsigned int sreg_rank() {
    unsigned int r;
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
  }
  static __device__ __forceinline__ unsigned int sreg_nrank() {
    unsigned int r;
    asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(r));
    return r;
  }

public:
  __device__ void barrier_arrive() const { asm volatile("barrier.cluster.arrive.aligned;" ::: "memory"); }
  __device__ void barrier_wait() const { asm volatile("barrier.cluster.wait.aligned;" ::: "memory"); }
  __device__ void sync() const {
    barrier_arrive();
    barrier_wait();
  }
  __device__ unsigned int block_rank() const { return sreg_rank(); }
  __device__ unsigned int num_blocks() const { return sreg_nrank(); }
  __device__ dim3 dim_blocks() const {
    unsigned int x, y, z;
    asm("mov.u32 %0, %%cluster_nctaid.x;" : "=r"(x));
    asm("mov.u32 %0, %%cluster_nctaid.y;" : "=r"(y));
    asm("mov.u32 %0, %%cluster_nctaid.z;" : "=r"(z));
    return dim3(x, y, z);
  }
  __device__ dim3 block_index() const {
    unsigned int x, y, z;
    asm("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(x));
    asm("mov.u32 %0, %%cluster_ctaid.y;" : "=r"(y));
    asm("mov.u32 %0, %%cluster_ctaid.z;" : "=r"(z));
    return dim3(x, y, z);
  }
  __device__ dim3 group_dim() const { return dim_blocks(); }
  __device__ dim3 dim_threads() const { return dim3(blockDim.x, blockDim.y, blockDim.z); }
  __device__ unsigned int thread_rank() const { return sreg_rank() * __ks::block_size() + __ks::block_rank(); }
  __device__ unsigned int num_threads() const { return sreg_nrank() * __ks::block_size(); }
  __device__ unsigned int size() const { return num_threads(); }
  __device__ static bool is_valid() { return true; }
  // The address of *addr in the shared memory of the block of rank rank.
  template <class T> __device__ T *map_shared_rank(T *addr, int rank) const {
    unsigned long long r;
    asm volatile("mapa.u64 %0, %1, %2;" : "=l"(r) : "l"(addr), "r"(rank));
    return (T *)r;
  }
  // The rank of the block whose shared memory holds addr.
  __device__ unsigned int query_shared_rank(const void *addr) const {
    unsigned int r;
    asm volatile("getctarank.u64 %0, %1;" : "=r"(r) : "l"(addr));
    return r;
  }
};
__device__ __forceinline__ cluster_group this_cluster() { return cluster_group(); }

// thread_block_tile<N>: N consecutive threads (by thread_rank) of a block, N = 1..32.
template <unsigned int N, class Parent = void> class thread_block_tile;

template <unsigned int N> class thread_block_tile<N, void> : public thread_group {
  static_assert(N == 1 || N == 2 || N == 4 || N == 8 || N == 16 || N == 32,
                "thread_block_tile<N>: N must be 1, 2, 4, 8, 16 or 32 in KernelScope");

protected:
  unsigned int meta_rank_, meta_size_;
  static __device__ unsigned int tile_mask() {
    return N == 32 ? 0xffffffffu : (((1u << N) - 1u) << (__ks::lane() & ~(N - 1u)));
  }

public:
  __device__ thread_block_tile(unsigned int meta_rank, unsigned int meta_size)
      : thread_group(__ks_kind::tile, tile_mask(), N), meta_rank_(meta_rank), meta_size_(meta_size) {}
  static constexpr unsigned int numThreads = N;
  __device__ void sync() const { __syncwarp(mask_); }
  __device__ unsigned int thread_rank() const { return __ks::block_rank() & (N - 1u); }
  __device__ static constexpr unsigned int size() { return N; }
  __device__ static constexpr unsigned int num_threads() { return N; }
  __device__ unsigned int meta_group_rank() const { return meta_rank_; }
  __device__ unsigned int meta_group_size() const { return meta_size_; }
  template <class T> __device__ T shfl(T v, int src) const { return __ks::shfl(mask_, v, src, N, __ks::IDX); }
  template <class T> __device__ T shfl_up(T v, unsigned int d) const { return __ks::shfl(mask_, v, (int)d, N, __ks::UP); }
  template <class T> __device__ T shfl_down(T v, unsigned int d) const { return __ks::shfl(mask_, v, (int)d, N, __ks::DOWN); }
  template <class T> __device__ T shfl_xor(T v, unsigned int m) const { return __ks::shfl(mask_, v, (int)m, N, __ks::XOR); }
  __device__ unsigned int ballot(int pred) const {
    unsigned int b = __ballot_sync(mask_, pred);
    return N == 32 ? b : (b >> (__ks::lane() & ~(N - 1u))) & ((1u << N) - 1u);
  }
  __device__ int any(int pred) const { return __any_sync(mask_, pred); }
  __device__ int all(int pred) const { return __all_sync(mask_, pred); }
  template <class T> __device__ unsigned int match_any(T v) const {
    unsigned int m = __match_any_sync(mask_, v);
    return N == 32 ? m : (m >> (__ks::lane() & ~(N - 1u))) & ((1u << N) - 1u);
  }
  template <class T> __device__ unsigned int match_all(T v, int &pred) const {
    unsigned int m = __match_all_sync(mask_, v, &pred);
    return N == 32 ? m : (m >> (__ks::lane() & ~(N - 1u))) & ((1u << N) - 1u);
  }
};

// The tile type tiled_partition<N>(parent) returns; it converts to thread_block_tile<N>.
template <unsigned int N, class Parent> class thread_block_tile : public thread_block_tile<N, void> {
public:
  __device__ thread_block_tile(unsigned int meta_rank, unsigned int meta_size) : thread_block_tile<N, void>(meta_rank, meta_size) {}
};

template <unsigned int N> static __device__ __forceinline__ thread_block_tile<N, thread_block> tiled_partition(const thread_block &) {
  return thread_block_tile<N, thread_block>(__ks::block_rank() / N, (__ks::block_size() + N - 1) / N);
}
template <unsigned int N, unsigned int M, class P>
static __device__ __forceinline__ thread_block_tile<N, thread_block_tile<M, P>> tiled_partition(const thread_block_tile<M, P> &parent) {
  static_assert(N <= M, "tiled_partition<N>(tile<M>): N must not exceed M");
  return thread_block_tile<N, thread_block_tile<M, P>>(parent.thread_rank() / N, M / N);
}

// coalesced_group: the threads of a warp active where it was made.
class coalesced_group : public thread_group {
public:
  __device__ explicit coalesced_group(unsigned int mask) : thread_group(__ks_kind::coalesced, mask, 0) {}
  __device__ void sync() const { __syncwarp(mask_); }
  __device__ unsigned int thread_rank() const { return (unsigned int)__builtin_popcount(mask_ & __ks::lanemask_lt()); }
  __device__ unsigned int size() const { return (unsigned int)__builtin_popcount(mask_); }
  __device__ unsigned int num_threads() const { return size(); }
  __device__ unsigned int meta_group_rank() const { return 0; }
  __device__ unsigned int meta_group_size() const { return 1; }
  template <class T> __device__ T shfl(T v, int src) const {
    return __ks::shfl(mask_, v, __ks::nth_lane(mask_, src), 32, __ks::IDX);
  }
  template <class T> __device__ T shfl_down(T v, unsigned int d) const {
    unsigned int r = thread_rank() + d;
    int l = r < size() ? __ks::nth_lane(mask_, (int)r) : (int)__ks::lane();
    return __ks::shfl(mask_, v, l, 32, __ks::IDX);
  }
  template <class T> __device__ T shfl_up(T v, unsigned int d) const {
    unsigned int r = thread_rank();
    int l = r >= d ? __ks::nth_lane(mask_, (int)(r - d)) : (int)__ks::lane();
    return __ks::shfl(mask_, v, l, 32, __ks::IDX);
  }
  __device__ unsigned int ballot(int pred) const { return __ks::compress(__ballot_sync(mask_, pred), mask_); }
  __device__ int any(int pred) const { return __any_sync(mask_, pred); }
  __device__ int all(int pred) const { return __all_sync(mask_, pred); }
  template <class T> __device__ unsigned int match_any(T v) const { return __ks::compress(__match_any_sync(mask_, v), mask_); }
  template <class T> __device__ unsigned int match_all(T v, int &pred) const {
    return __ks::compress(__match_all_sync(mask_, v, &pred), mask_);
  }
};
static __device__ __forceinline__ coalesced_group coalesced_threads() { return coalesced_group(__activemask()); }

// The threads of g whose pred is the same as this thread's.
template <class G> static __device__ __forceinline__ coalesced_group binary_partition(const G &g, bool pred) {
  unsigned int m = __activemask();
  unsigned int b = __ballot_sync(m, pred);
  return coalesced_group((pred ? b : ~b) & m);
}
// The threads of g whose label is the same as this thread's.
template <class G, class L> static __device__ __forceinline__ coalesced_group labeled_partition(const G &g, L label) {
  return coalesced_group(__match_any_sync(__activemask(), label));
}

// tiled_partition(parent, n): a tile of n threads as a thread_group (n a power of two <= 32).
class __ks_dynamic_tile : public thread_group {
public:
  __device__ __ks_dynamic_tile(unsigned int n)
      : thread_group(__ks_kind::tile, n >= 32 ? 0xffffffffu : (((1u << n) - 1u) << (__ks::lane() & ~(n - 1u))), n) {}
};
static __device__ __forceinline__ thread_group tiled_partition(const thread_group &parent, unsigned int n) {
  return __ks_dynamic_tile(n);
}

// Free functions of every group.
template <class G> static __device__ __forceinline__ void sync(const G &g) { g.sync(); }
template <class G> static __device__ __forceinline__ void synchronize(const G &g) { g.sync(); }
template <class G> static __device__ __forceinline__ unsigned long long thread_rank(const G &g) { return g.thread_rank(); }
template <class G> static __device__ __forceinline__ unsigned long long group_size(const G &g) { return g.size(); }

// memcpy_async / wait: a copy by the group's threads followed by the group's barrier
// at wait (the documented result, without the asynchrony).
template <class G, class Size>
static __device__ __forceinline__ void memcpy_async(const G &g, void *dst, const void *src, Size bytes) {
  unsigned char *d = (unsigned char *)dst;
  const unsigned char *s = (const unsigned char *)src;
  size_t n = (size_t)bytes;
  size_t r = (size_t)g.thread_rank(), step = (size_t)g.size();
  if ((((uintptr_t)d | (uintptr_t)s | n) & 15u) == 0) {
    for (size_t i = r * 16; i < n; i += step * 16) *(uint4 *)(d + i) = *(const uint4 *)(s + i);
  } else if ((((uintptr_t)d | (uintptr_t)s | n) & 3u) == 0) {
    for (size_t i = r * 4; i < n; i += step * 4) *(unsigned int *)(d + i) = *(const unsigned int *)(s + i);
  } else {
    for (size_t i = r; i < n; i += step) d[i] = s[i];
  }
}
template <class G, class T>
static __device__ __forceinline__ void memcpy_async(const G &g, T *dst, size_t dst_count, const T *src, size_t src_count) {
  memcpy_async(g, (void *)dst, (const void *)src, (dst_count < src_count ? dst_count : src_count) * sizeof(T));
}
template <class G> static __device__ __forceinline__ void wait(const G &g) { g.sync(); }
template <unsigned int Stages, class G> static __device__ __forceinline__ void wait_prior(const G &g) { g.sync(); }
} // namespace cooperative_groups

namespace cuda {
// cuda::aligned_size_t<A>(n): a byte count promised to be a multiple of A.
template <size_t A> struct aligned_size_t {
  size_t value;
  __host__ __device__ constexpr explicit aligned_size_t(size_t n) : value(n) {}
  __host__ __device__ constexpr operator size_t() const { return value; }
};
} // namespace cuda

#include "cooperative_groups/reduce.h"
#include "cooperative_groups/scan.h"
#include "kernelscope_names_pop.h"
#endif // KERNELSCOPE_COOPERATIVE_GROUPS_H
