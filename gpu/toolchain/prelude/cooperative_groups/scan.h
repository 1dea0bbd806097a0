// KernelScope: <cooperative_groups/scan.h>: cg::inclusive_scan and cg::exclusive_scan
// over a thread_block_tile or a coalesced_group (plus when no operator is given).
// The exclusive scan gives thread rank 0 a value-initialised T (0 for arithmetic types).
#pragma clang system_header
#ifndef KERNELSCOPE_CG_SCAN_H
#define KERNELSCOPE_CG_SCAN_H
#include "reduce.h"

namespace cooperative_groups {
// Hillis-Steele over thread ranks with shfl_up: rank r ends with op over ranks 0..r.
template <class G, class T, class Op> static __device__ __forceinline__ T inclusive_scan(const G &g, T v, Op op) {
  unsigned int n = g.size(), r = g.thread_rank();
  for (unsigned int o = 1; o < n; o *= 2) {
    T other = g.shfl_up(v, o);
    if (r >= o) v = op(other, v);
  }
  return v;
}
template <class G, class T> static __device__ __forceinline__ T inclusive_scan(const G &g, T v) {
  return inclusive_scan(g, v, plus<T>());
}
template <class G, class T, class Op> static __device__ __forceinline__ T exclusive_scan(const G &g, T v, Op op) {
  T in = inclusive_scan(g, v, op);
  T prev = g.shfl_up(in, 1);
  return g.thread_rank() == 0 ? T() : prev;
}
template <class G, class T> static __device__ __forceinline__ T exclusive_scan(const G &g, T v) {
  return exclusive_scan(g, v, plus<T>());
}
} // namespace cooperative_groups
#endif // KERNELSCOPE_CG_SCAN_H
