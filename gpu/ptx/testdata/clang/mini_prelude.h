// Minimal CUDA prelude for generating parser fixtures with clang (not the product's prelude).
#include <__clang_cuda_builtin_vars.h>
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
#define __forceinline__ __attribute__((always_inline))
static __device__ __forceinline__ unsigned __ballot_sync(unsigned m, int p) { return __nvvm_vote_ballot_sync(m, p); }
static __device__ __forceinline__ int __all_sync(unsigned m, int p) { return __nvvm_vote_all_sync(m, p); }
static __device__ __forceinline__ int __any_sync(unsigned m, int p) { return __nvvm_vote_any_sync(m, p); }
static __device__ __forceinline__ int __popc(unsigned x) { return __builtin_popcount(x); }
static __device__ __forceinline__ float __shfl_down_sync(unsigned m, float v, unsigned d) { return __nvvm_shfl_sync_down_f32(m, v, d, 0x1f); }
static __device__ __forceinline__ unsigned atomicAdd(unsigned *a, unsigned v) { return __nvvm_atom_add_gen_i((int *)a, (int)v); }
static __device__ __forceinline__ int atomicAdd(int *a, int v) { return __nvvm_atom_add_gen_i(a, v); }
static __device__ __forceinline__ float atomicAdd(float *a, float v) { return __nvvm_atom_add_gen_f(a, v); }
