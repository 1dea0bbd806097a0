// KernelScope: the warp matrix API (nvcuda::wmma) as CUDA's <mma.h> names it, written
// for KernelScope from the CUDA C++ Programming Guide's "Warp Matrix Functions".
// Fragments, load_matrix_sync, mma_sync, store_matrix_sync and fill_fragment for
// m16n16k16 with half or __nv_bfloat16 inputs and float or half accumulators. Each
// function is one PTX wmma instruction (clang's __hmma_* / __mma_bf16_* builtins emit
// wmma.load, wmma.mma and wmma.store), the instructions nvcc's <mma.h> emits too, so
// both compilers' PTX runs on the same simulator path. The elements of fragment::x
// are the H200's fragment layout (docs/tensor-cores.md): loads, element-wise loops
// over x[i] and stores behave as on the device. Other shapes and types (m32n8k16,
// m8n32k16, tf32, int8, sub-byte, double) are not provided here: using them is a
// compile error naming the fragment.
#pragma clang system_header
#ifndef KERNELSCOPE_MMA_H
#define KERNELSCOPE_MMA_H
#include "kernelscope_names_push.h"
#include "kernelscope_prelude.h"
#include "cuda_fp16.h"
#include "cuda_bf16.h"

namespace nvcuda {
namespace wmma {

struct row_major {};
struct col_major {};
struct matrix_a {};
struct matrix_b {};
struct accumulator {};

enum layout_t { mem_row_major, mem_col_major };

namespace __ks {
template <typename L> struct layout_code;
template <> struct layout_code<row_major> { enum { value = 0 }; };
template <> struct layout_code<col_major> { enum { value = 1 }; };

template <typename T, int N> struct frag_base {
  typedef T element_type;
  typedef T storage_element_type;
  enum { num_elements = N };
  __align__(16) T x[N];
};
} // namespace __ks

// fragment<Use, m, n, k, T, Layout>: only the specialisations below exist.
template <typename Use, int m, int n, int k, typename T, typename Layout = void> class fragment;

// f16 a and b: 16 elements per thread (the 8 of the tensor-core fragment, held twice).
template <typename L> class fragment<matrix_a, 16, 16, 16, __half, L> : public __ks::frag_base<__half, 16> {};
template <typename L> class fragment<matrix_b, 16, 16, 16, __half, L> : public __ks::frag_base<__half, 16> {};
template <typename L> class fragment<matrix_a, 16, 16, 16, __nv_bfloat16, L> : public __ks::frag_base<__nv_bfloat16, 8> {};
template <typename L> class fragment<matrix_b, 16, 16, 16, __nv_bfloat16, L> : public __ks::frag_base<__nv_bfloat16, 8> {};
template <> class fragment<accumulator, 16, 16, 16, float, void> : public __ks::frag_base<float, 8> {};
template <> class fragment<accumulator, 16, 16, 16, __half, void> : public __ks::frag_base<__half, 8> {};

template <typename Use, int m, int n, int k, typename T, typename L>
__device__ inline void fill_fragment(fragment<Use, m, n, k, T, L> &f, const T &v) {
#pragma unroll
  for (int i = 0; i < f.num_elements; i++) f.x[i] = v;
}

// ---- loads ----
template <typename L>
__device__ inline void load_matrix_sync(fragment<matrix_a, 16, 16, 16, __half, L> &f, const __half *p, unsigned ldm) {
  __hmma_m16n16k16_ld_a((int *)f.x, (const int *)p, ldm, __ks::layout_code<L>::value);
}
template <typename L>
__device__ inline void load_matrix_sync(fragment<matrix_b, 16, 16, 16, __half, L> &f, const __half *p, unsigned ldm) {
  __hmma_m16n16k16_ld_b((int *)f.x, (const int *)p, ldm, __ks::layout_code<L>::value);
}
template <typename L>
__device__ inline void load_matrix_sync(fragment<matrix_a, 16, 16, 16, __nv_bfloat16, L> &f, const __nv_bfloat16 *p, unsigned ldm) {
  __mma_bf16_m16n16k16_ld_a((int *)f.x, (const int *)p, ldm, __ks::layout_code<L>::value);
}
template <typename L>
__device__ inline void load_matrix_sync(fragment<matrix_b, 16, 16, 16, __nv_bfloat16, L> &f, const __nv_bfloat16 *p, unsigned ldm) {
  __mma_bf16_m16n16k16_ld_b((int *)f.x, (const int *)p, ldm, __ks::layout_code<L>::value);
}
__device__ inline void load_matrix_sync(fragment<accumulator, 16, 16, 16, float> &f, const float *p, unsigned ldm, layout_t l) {
  if (l == mem_row_major)
    __hmma_m16n16k16_ld_c_f32(f.x, p, ldm, 0);
  else
    __hmma_m16n16k16_ld_c_f32(f.x, p, ldm, 1);
}
__device__ inline void load_matrix_sync(fragment<accumulator, 16, 16, 16, __half> &f, const __half *p, unsigned ldm, layout_t l) {
  if (l == mem_row_major)
    __hmma_m16n16k16_ld_c_f16((int *)f.x, (const int *)p, ldm, 0);
  else
    __hmma_m16n16k16_ld_c_f16((int *)f.x, (const int *)p, ldm, 1);
}

// ---- stores ----
__device__ inline void store_matrix_sync(float *p, const fragment<accumulator, 16, 16, 16, float> &f, unsigned ldm, layout_t l) {
  if (l == mem_row_major)
    __hmma_m16n16k16_st_c_f32(p, f.x, ldm, 0);
  else
    __hmma_m16n16k16_st_c_f32(p, f.x, ldm, 1);
}
__device__ inline void store_matrix_sync(__half *p, const fragment<accumulator, 16, 16, 16, __half> &f, unsigned ldm, layout_t l) {
  if (l == mem_row_major)
    __hmma_m16n16k16_st_c_f16((int *)p, (const int *)f.x, ldm, 0);
  else
    __hmma_m16n16k16_st_c_f16((int *)p, (const int *)f.x, ldm, 1);
}

// ---- mma: d = a*b + c (layout code: 2*a_col + b_col) ----
template <typename LA, typename LB>
__device__ inline void mma_sync(fragment<accumulator, 16, 16, 16, float> &d, const fragment<matrix_a, 16, 16, 16, __half, LA> &a,
                                const fragment<matrix_b, 16, 16, 16, __half, LB> &b, const fragment<accumulator, 16, 16, 16, float> &c) {
  __hmma_m16n16k16_mma_f32f32(d.x, (const int *)a.x, (const int *)b.x, c.x,
                              2 * __ks::layout_code<LA>::value + __ks::layout_code<LB>::value, 0);
}
template <typename LA, typename LB>
__device__ inline void mma_sync(fragment<accumulator, 16, 16, 16, __half> &d, const fragment<matrix_a, 16, 16, 16, __half, LA> &a,
                                const fragment<matrix_b, 16, 16, 16, __half, LB> &b, const fragment<accumulator, 16, 16, 16, __half> &c) {
  __hmma_m16n16k16_mma_f16f16((int *)d.x, (const int *)a.x, (const int *)b.x, (const int *)c.x,
                              2 * __ks::layout_code<LA>::value + __ks::layout_code<LB>::value, 0);
}
template <typename LA, typename LB>
__device__ inline void mma_sync(fragment<accumulator, 16, 16, 16, float> &d, const fragment<matrix_a, 16, 16, 16, __half, LA> &a,
                                const fragment<matrix_b, 16, 16, 16, __half, LB> &b, const fragment<accumulator, 16, 16, 16, __half> &c) {
  __hmma_m16n16k16_mma_f32f16(d.x, (const int *)a.x, (const int *)b.x, (const int *)c.x,
                              2 * __ks::layout_code<LA>::value + __ks::layout_code<LB>::value, 0);
}
template <typename LA, typename LB>
__device__ inline void mma_sync(fragment<accumulator, 16, 16, 16, __half> &d, const fragment<matrix_a, 16, 16, 16, __half, LA> &a,
                                const fragment<matrix_b, 16, 16, 16, __half, LB> &b, const fragment<accumulator, 16, 16, 16, float> &c) {
  __hmma_m16n16k16_mma_f16f32((int *)d.x, (const int *)a.x, (const int *)b.x, c.x,
                              2 * __ks::layout_code<LA>::value + __ks::layout_code<LB>::value, 0);
}
template <typename LA, typename LB>
__device__ inline void mma_sync(fragment<accumulator, 16, 16, 16, float> &d, const fragment<matrix_a, 16, 16, 16, __nv_bfloat16, LA> &a,
                                const fragment<matrix_b, 16, 16, 16, __nv_bfloat16, LB> &b, const fragment<accumulator, 16, 16, 16, float> &c) {
  __mma_bf16_m16n16k16_mma_f32(d.x, (const int *)a.x, (const int *)b.x, c.x,
                               2 * __ks::layout_code<LA>::value + __ks::layout_code<LB>::value, 0);
}

} // namespace wmma
} // namespace nvcuda
#include "kernelscope_names_pop.h"
#endif
