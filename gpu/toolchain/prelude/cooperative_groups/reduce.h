// KernelScope: <cooperative_groups/reduce.h>: cg::reduce over a thread_block_tile
// or a coalesced_group, and the operators cg::plus, less, greater, bit_and,
// bit_or and bit_xor (written for KernelScope from the CUDA Programming Guide).
#pragma clang system_header
#ifndef KERNELSCOPE_CG_REDUCE_H
#define KERNELSCOPE_CG_REDUCE_H
#include "../cooperative_groups.h"

namespace cooperative_groups {
template <class T = void> struct plus {
  __device__ T operator()(const T &a, const T &b) const { return a + b; }
};
template <class T = void> struct less {  // the smaller: reduce(g, v, less<T>()) is the minimum
  __device__ T operator()(const T &a, const T &b) const { return b < a ? b : a; }
};
template <class T = void> struct greater {  // the larger: reduce(g, v, greater<T>()) is the maximum
  __device__ T operator()(const T &a, const T &b) const { return a < b ? b : a; }
};
template <class T = void> struct bit_and {
  __device__ T operator()(const T &a, const T &b) const { return a & b; }
};
template <class T = void> struct bit_or {
  __device__ T operator()(const T &a, const T &b) const { return a | b; }
};
template <class T = void> struct bit_xor {
  __device__ T operator()(const T &a, const T &b) const { return a ^ b; }
};

// A tile: a butterfly of shfl_xor, every thread ends with the whole result.
template <unsigned int N, class P, class T, class Op>
static __device__ __forceinline__ T reduce(const thread_block_tile<N, P> &g, T v, Op op) {
#pragma unroll
  for (unsigned int o = N / 2; o > 0; o /= 2) v = op(v, g.shfl_xor(v, o));
  return v;
}
// A coalesced group of any size: a tree over thread ranks into rank 0, then a broadcast.
template <class T, class Op> static __device__ __forceinline__ T reduce(const coalesced_group &g, T v, Op op) {
  unsigned int n = g.size(), r = g.thread_rank();
  for (unsigned int o = 1; o < n; o *= 2) {
    T other = g.shfl_down(v, o);
    if (r + o < n) v = op(v, other);
  }
  return g.shfl(v, 0);
}
} // namespace cooperative_groups
#endif // KERNELSCOPE_CG_REDUCE_H
