// KernelScope prelude: lets ordinary CUDA compile with clang and no CUDA toolkit.
// Passed to clang with -include, so the cell's own line numbers are unchanged.
// It declares what the toolkit's cuda_runtime.h would (qualifiers, vector types,
// atomics, min/max, float overloads), reuses clang's own CUDA wrapper headers for
// built-in variables, intrinsics and the math library, and defines the libdevice
// (__nv_*) functions those wrappers call, so the PTX has no external functions.
#pragma clang system_header
#ifndef KERNELSCOPE_PRELUDE_H
#define KERNELSCOPE_PRELUDE_H
#include "kernelscope_names_push.h"

#ifndef CUDA_VERSION
#define CUDA_VERSION 12000
#endif
#ifndef __CUDACC__
#define __CUDACC__ 1
#endif

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
// clang-19 has no cluster_dims attribute: KernelScope reads __cluster_dims__(x, y, z)
// from the CUDA source and launches the kernel with clusters of that shape.
#define __cluster_dims__(...)
#define __align__(n) __attribute__((aligned(n)))
#define __grid_constant__ __attribute__((grid_constant))

typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;
typedef __INT8_TYPE__ int8_t;
typedef __UINT8_TYPE__ uint8_t;
typedef __INT16_TYPE__ int16_t;
typedef __UINT16_TYPE__ uint16_t;
typedef __INT32_TYPE__ int32_t;
typedef __UINT32_TYPE__ uint32_t;
typedef __INT64_TYPE__ int64_t;
typedef __UINT64_TYPE__ uint64_t;
typedef __UINTPTR_TYPE__ uintptr_t;
typedef __INTPTR_TYPE__ intptr_t;
typedef unsigned int cuuint32_t;
typedef unsigned long long cuuint64_t;
// CUDA's (and glibc's sys/types.h's) short names for the unsigned types.
typedef unsigned int uint;
typedef unsigned short ushort;
typedef unsigned long ulong;
typedef unsigned char uchar;

#define CHAR_BIT __CHAR_BIT__
#define SCHAR_MAX __SCHAR_MAX__
#define SCHAR_MIN (-__SCHAR_MAX__ - 1)
#define UCHAR_MAX (__SCHAR_MAX__ * 2 + 1)
#define SHRT_MAX __SHRT_MAX__
#define SHRT_MIN (-__SHRT_MAX__ - 1)
#define USHRT_MAX (__SHRT_MAX__ * 2 + 1)
#define INT_MAX __INT_MAX__
#define INT_MIN (-__INT_MAX__ - 1)
#define UINT_MAX (__INT_MAX__ * 2U + 1U)
#define LONG_MAX __LONG_MAX__
#define LONG_MIN (-__LONG_MAX__ - 1L)
#define ULONG_MAX (__LONG_MAX__ * 2UL + 1UL)
#define LLONG_MAX __LONG_LONG_MAX__
#define LLONG_MIN (-__LONG_LONG_MAX__ - 1LL)
#define ULLONG_MAX (__LONG_LONG_MAX__ * 2ULL + 1ULL)
#define FLT_MAX __FLT_MAX__
#define FLT_MIN __FLT_MIN__
#define FLT_EPSILON __FLT_EPSILON__
#define DBL_MAX __DBL_MAX__
#define DBL_MIN __DBL_MIN__
#define DBL_EPSILON __DBL_EPSILON__
#define HUGE_VAL (__builtin_huge_val())
#define HUGE_VALF (__builtin_huge_valf())
#define INFINITY (__builtin_inff())
#define NAN (__builtin_nanf(""))
#define M_PI 3.14159265358979323846
#define M_E 2.7182818284590452354
#ifndef NULL
#define NULL nullptr
#endif

// ---- vector types (CUDA's vector_types.h layout and alignment) ----
#if defined(__cplusplus)
// A 16-byte vector assigned as a whole (a[i] = b[i]) is one 16-byte load and one
// 16-byte store, as nvcc emits; clang lowers the implicit assignment's memcpy to two
// 8-byte halves. Copy construction and aggregate initialisation stay trivial; the one
// cost: a union with such a member cannot be assigned as a whole (copy it member-wise).
#define KS_ASSIGN16(S, T, K)                                                              \
  __host__ __device__ __forceinline__ S &operator=(const S &o) {                          \
    typedef T ks_vec_t __attribute__((ext_vector_type(K), aligned(16), may_alias));       \
    *reinterpret_cast<ks_vec_t *>(this) = *reinterpret_cast<const ks_vec_t *>(&o);        \
    return *this;                                                                         \
  }
#else
#define KS_ASSIGN16(S, T, K)
#endif
#define KS_NOASSIGN(S, T, K)
#define KS_VEC1(T, N, A) struct __attribute__((aligned(A))) N##1 { T x; };
#define KS_VEC2(T, N, A, AS) struct __attribute__((aligned(A))) N##2 { T x, y; AS(N##2, T, 2) };
#define KS_VEC3(T, N) struct N##3 { T x, y, z; };
#define KS_VEC4(T, N, A, AS) struct __attribute__((aligned(A))) N##4 { T x, y, z, w; AS(N##4, T, 4) };
#define KS_VECS(T, N, A1, A2, A4, AS2, AS4) \
  KS_VEC1(T, N, A1) KS_VEC2(T, N, A2, AS2) KS_VEC3(T, N) KS_VEC4(T, N, A4, AS4) \
  typedef struct N##1 N##1; typedef struct N##2 N##2; typedef struct N##3 N##3; typedef struct N##4 N##4; \
  static __device__ __forceinline__ N##1 make_##N##1(T x) { N##1 v; v.x = x; return v; } \
  static __device__ __forceinline__ N##2 make_##N##2(T x, T y) { N##2 v; v.x = x; v.y = y; return v; } \
  static __device__ __forceinline__ N##3 make_##N##3(T x, T y, T z) { N##3 v; v.x = x; v.y = y; v.z = z; return v; } \
  static __device__ __forceinline__ N##4 make_##N##4(T x, T y, T z, T w) { N##4 v; v.x = x; v.y = y; v.z = z; v.w = w; return v; }
KS_VECS(signed char, char, 1, 2, 4, KS_NOASSIGN, KS_NOASSIGN)
KS_VECS(unsigned char, uchar, 1, 2, 4, KS_NOASSIGN, KS_NOASSIGN)
KS_VECS(short, short, 2, 4, 8, KS_NOASSIGN, KS_NOASSIGN)
KS_VECS(unsigned short, ushort, 2, 4, 8, KS_NOASSIGN, KS_NOASSIGN)
KS_VECS(int, int, 4, 8, 16, KS_NOASSIGN, KS_ASSIGN16)
KS_VECS(unsigned int, uint, 4, 8, 16, KS_NOASSIGN, KS_ASSIGN16)
KS_VECS(long, long, 8, 16, 16, KS_ASSIGN16, KS_NOASSIGN)
KS_VECS(unsigned long, ulong, 8, 16, 16, KS_ASSIGN16, KS_NOASSIGN)
KS_VECS(long long, longlong, 8, 16, 16, KS_ASSIGN16, KS_NOASSIGN)
KS_VECS(unsigned long long, ulonglong, 8, 16, 16, KS_ASSIGN16, KS_NOASSIGN)
KS_VECS(float, float, 4, 8, 16, KS_NOASSIGN, KS_ASSIGN16)
KS_VECS(double, double, 8, 16, 16, KS_ASSIGN16, KS_NOASSIGN)
#undef KS_VEC1
#undef KS_VEC2
#undef KS_VEC3
#undef KS_VEC4
#undef KS_VECS
#undef KS_ASSIGN16
#undef KS_NOASSIGN

struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3() const { return uint3{x, y, z}; }
};
typedef struct dim3 dim3;

#include <__clang_cuda_builtin_vars.h>
#include "kernelscope_runtime.h"

__device__ inline __cuda_builtin_threadIdx_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_threadIdx_t::operator uint3() const { return uint3{x, y, z}; }
__device__ inline __cuda_builtin_blockIdx_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_blockIdx_t::operator uint3() const { return uint3{x, y, z}; }
__device__ inline __cuda_builtin_blockDim_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_blockDim_t::operator uint3() const { return uint3{x, y, z}; }
__device__ inline __cuda_builtin_gridDim_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_gridDim_t::operator uint3() const { return uint3{x, y, z}; }

#include <__clang_cuda_libdevice_declares.h>
#include "kernelscope_libdevice.h"
#include "kernelscope_math_extra.h"
#include "kernelscope_simd_rename.h"
#include <__clang_cuda_device_functions.h>
#include "kernelscope_simd.h"
#include <__clang_cuda_math.h>
// Address-space predicates and conversions (CUDA's sm_20_intrinsics.h), needed by
// clang's intrinsics header on sm_90.
static __device__ __forceinline__ unsigned int __isGlobal(const void *p) { return __nvvm_isspacep_global(p); }
static __device__ __forceinline__ unsigned int __isShared(const void *p) { return __nvvm_isspacep_shared(p); }
static __device__ __forceinline__ unsigned int __isConstant(const void *p) { return __nvvm_isspacep_const(p); }
static __device__ __forceinline__ unsigned int __isLocal(const void *p) { return __nvvm_isspacep_local(p); }
#define __cvta_generic_to_global(p) __nv_cvta_generic_to_global_impl(p)
#define __cvta_generic_to_shared(p) __nv_cvta_generic_to_shared_impl(p)
#define __cvta_generic_to_constant(p) __nv_cvta_generic_to_constant_impl(p)
#define __cvta_generic_to_local(p) __nv_cvta_generic_to_local_impl(p)
#define __cvta_global_to_generic(p) __nv_cvta_global_to_generic_impl(p)
#define __cvta_shared_to_generic(p) __nv_cvta_shared_to_generic_impl(p)
#define __cvta_constant_to_generic(p) __nv_cvta_constant_to_generic_impl(p)
#define __cvta_local_to_generic(p) __nv_cvta_local_to_generic_impl(p)
#include <__clang_cuda_intrinsics.h>
#include "kernelscope_cachehints.h"

// ---- __match_*_sync, as CUDA names them (sm_70 and later) ----
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700
#define KS_MATCH(T, W) \
  static __device__ __forceinline__ unsigned int __match_any_sync(unsigned int m, T v) { return __match##W##_any_sync(m, v); } \
  static __device__ __forceinline__ unsigned int __match_all_sync(unsigned int m, T v, int *p) { return __match##W##_all_sync(m, v, p); }
KS_MATCH(unsigned int, 32)
KS_MATCH(int, 32)
KS_MATCH(unsigned long long, 64)
KS_MATCH(long long, 64)
#undef KS_MATCH
static __device__ __forceinline__ unsigned int __match_any_sync(unsigned int m, float v) { return __match32_any_sync(m, __builtin_bit_cast(unsigned int, v)); }
static __device__ __forceinline__ unsigned int __match_any_sync(unsigned int m, double v) { return __match64_any_sync(m, __builtin_bit_cast(unsigned long long, v)); }
static __device__ __forceinline__ unsigned int __match_all_sync(unsigned int m, float v, int *p) { return __match32_all_sync(m, __builtin_bit_cast(unsigned int, v), p); }
static __device__ __forceinline__ unsigned int __match_all_sync(unsigned int m, double v, int *p) { return __match64_all_sync(m, __builtin_bit_cast(unsigned long long, v), p); }
#endif

// ---- atomics, as CUDA declares them ----
#define KS_ATOMIC_SCOPES(RET, NAME, PARAMS, ARGS, IMPL) \
  static __device__ __forceinline__ RET NAME PARAMS { return IMPL ARGS; } \
  static __device__ __forceinline__ RET NAME##_block PARAMS { return IMPL##_block ARGS; } \
  static __device__ __forceinline__ RET NAME##_system PARAMS { return IMPL##_system ARGS; }
KS_ATOMIC_SCOPES(int, atomicAdd, (int *p, int v), (p, v), __iAtomicAdd)
KS_ATOMIC_SCOPES(unsigned int, atomicAdd, (unsigned int *p, unsigned int v), (p, v), __uAtomicAdd)
KS_ATOMIC_SCOPES(unsigned long long, atomicAdd, (unsigned long long *p, unsigned long long v), (p, v), __ullAtomicAdd)
KS_ATOMIC_SCOPES(float, atomicAdd, (float *p, float v), (p, v), __fAtomicAdd)
KS_ATOMIC_SCOPES(double, atomicAdd, (double *p, double v), (p, v), __dAtomicAdd)
KS_ATOMIC_SCOPES(int, atomicSub, (int *p, int v), (p, -v), __iAtomicAdd)
KS_ATOMIC_SCOPES(unsigned int, atomicSub, (unsigned int *p, unsigned int v), (p, 0u - v), __uAtomicAdd)
KS_ATOMIC_SCOPES(int, atomicExch, (int *p, int v), (p, v), __iAtomicExch)
KS_ATOMIC_SCOPES(unsigned int, atomicExch, (unsigned int *p, unsigned int v), (p, v), __uAtomicExch)
KS_ATOMIC_SCOPES(unsigned long long, atomicExch, (unsigned long long *p, unsigned long long v), (p, v), __ullAtomicExch)
KS_ATOMIC_SCOPES(float, atomicExch, (float *p, float v), (p, v), __fAtomicExch)
KS_ATOMIC_SCOPES(int, atomicMin, (int *p, int v), (p, v), __iAtomicMin)
KS_ATOMIC_SCOPES(unsigned int, atomicMin, (unsigned int *p, unsigned int v), (p, v), __uAtomicMin)
KS_ATOMIC_SCOPES(unsigned long long, atomicMin, (unsigned long long *p, unsigned long long v), (p, v), __ullAtomicMin)
KS_ATOMIC_SCOPES(long long, atomicMin, (long long *p, long long v), (p, v), __illAtomicMin)
KS_ATOMIC_SCOPES(int, atomicMax, (int *p, int v), (p, v), __iAtomicMax)
KS_ATOMIC_SCOPES(unsigned int, atomicMax, (unsigned int *p, unsigned int v), (p, v), __uAtomicMax)
KS_ATOMIC_SCOPES(unsigned long long, atomicMax, (unsigned long long *p, unsigned long long v), (p, v), __ullAtomicMax)
KS_ATOMIC_SCOPES(long long, atomicMax, (long long *p, long long v), (p, v), __illAtomicMax)
KS_ATOMIC_SCOPES(unsigned int, atomicInc, (unsigned int *p, unsigned int v), (p, v), __uAtomicInc)
KS_ATOMIC_SCOPES(unsigned int, atomicDec, (unsigned int *p, unsigned int v), (p, v), __uAtomicDec)
KS_ATOMIC_SCOPES(int, atomicCAS, (int *p, int c, int v), (p, c, v), __iAtomicCAS)
KS_ATOMIC_SCOPES(unsigned int, atomicCAS, (unsigned int *p, unsigned int c, unsigned int v), (p, c, v), __uAtomicCAS)
KS_ATOMIC_SCOPES(unsigned long long, atomicCAS, (unsigned long long *p, unsigned long long c, unsigned long long v), (p, c, v), __ullAtomicCAS)
KS_ATOMIC_SCOPES(int, atomicAnd, (int *p, int v), (p, v), __iAtomicAnd)
KS_ATOMIC_SCOPES(unsigned int, atomicAnd, (unsigned int *p, unsigned int v), (p, v), __uAtomicAnd)
KS_ATOMIC_SCOPES(unsigned long long, atomicAnd, (unsigned long long *p, unsigned long long v), (p, v), __ullAtomicAnd)
KS_ATOMIC_SCOPES(int, atomicOr, (int *p, int v), (p, v), __iAtomicOr)
KS_ATOMIC_SCOPES(unsigned int, atomicOr, (unsigned int *p, unsigned int v), (p, v), __uAtomicOr)
KS_ATOMIC_SCOPES(unsigned long long, atomicOr, (unsigned long long *p, unsigned long long v), (p, v), __ullAtomicOr)
KS_ATOMIC_SCOPES(int, atomicXor, (int *p, int v), (p, v), __iAtomicXor)
KS_ATOMIC_SCOPES(unsigned int, atomicXor, (unsigned int *p, unsigned int v), (p, v), __uAtomicXor)
KS_ATOMIC_SCOPES(unsigned long long, atomicXor, (unsigned long long *p, unsigned long long v), (p, v), __ullAtomicXor)
#undef KS_ATOMIC_SCOPES

// ---- min / max overloads (CUDA's math_functions.hpp; int is in clang's __clang_cuda_math.h) ----
#define KS_MINMAX(T) \
  static __device__ __forceinline__ T min(T a, T b) { return a < b ? a : b; } \
  static __device__ __forceinline__ T max(T a, T b) { return a > b ? a : b; }
KS_MINMAX(unsigned int)
KS_MINMAX(long)
KS_MINMAX(unsigned long)
KS_MINMAX(long long)
KS_MINMAX(unsigned long long)
#undef KS_MINMAX
static __device__ __forceinline__ unsigned int min(int a, unsigned int b) { return min((unsigned int)a, b); }
static __device__ __forceinline__ unsigned int min(unsigned int a, int b) { return min(a, (unsigned int)b); }
static __device__ __forceinline__ unsigned int max(int a, unsigned int b) { return max((unsigned int)a, b); }
static __device__ __forceinline__ unsigned int max(unsigned int a, int b) { return max(a, (unsigned int)b); }
static __device__ __forceinline__ float min(float a, float b) { return fminf(a, b); }
static __device__ __forceinline__ float max(float a, float b) { return fmaxf(a, b); }
static __device__ __forceinline__ double min(double a, double b) { return fmin(a, b); }
static __device__ __forceinline__ double max(double a, double b) { return fmax(a, b); }

// ---- float overloads of the math library (as <cmath> gives CUDA code) ----
#define KS_F1(NAME) static __device__ __forceinline__ float NAME(float x) { return NAME##f(x); }
#define KS_F2(NAME) static __device__ __forceinline__ float NAME(float x, float y) { return NAME##f(x, y); }
KS_F1(sqrt) KS_F1(rsqrt) KS_F1(cbrt) KS_F1(exp) KS_F1(exp2) KS_F1(exp10) KS_F1(expm1)
KS_F1(log) KS_F1(log2) KS_F1(log10) KS_F1(log1p) KS_F1(sin) KS_F1(cos) KS_F1(tan)
KS_F1(asin) KS_F1(acos) KS_F1(atan) KS_F1(sinh) KS_F1(cosh) KS_F1(tanh) KS_F1(fabs)
KS_F1(floor) KS_F1(ceil) KS_F1(trunc) KS_F1(round) KS_F1(rint) KS_F1(erf) KS_F1(erfc)
KS_F2(pow) KS_F2(fmin) KS_F2(fmax) KS_F2(atan2) KS_F2(fmod) KS_F2(hypot) KS_F2(copysign)
// pow of any other pair of arithmetic types is C++11's <cmath> overload: the double pow of
// the promoted arguments, returning double — pow(float, int) and pow(double, int) as nvcc 13
// compiles them with libstdc++ (testdata/fastgold cell0.ptx: cvt.f64 of both, then its
// double pow; CUDA's powif/powi overloads are libc++ only, powi_decl.txt), and pow(2, 3),
// pow(x, 2.0) for a float x. pow(float, float) and pow(double, double) stay the exact
// non-template overloads (preferred in a tie).
template <typename T> struct ks_arith { enum { ok = 0 }; };
template <> struct ks_arith<char> { enum { ok = 1 }; };
template <> struct ks_arith<signed char> { enum { ok = 1 }; };
template <> struct ks_arith<unsigned char> { enum { ok = 1 }; };
template <> struct ks_arith<short> { enum { ok = 1 }; };
template <> struct ks_arith<unsigned short> { enum { ok = 1 }; };
template <> struct ks_arith<int> { enum { ok = 1 }; };
template <> struct ks_arith<unsigned int> { enum { ok = 1 }; };
template <> struct ks_arith<long> { enum { ok = 1 }; };
template <> struct ks_arith<unsigned long> { enum { ok = 1 }; };
template <> struct ks_arith<long long> { enum { ok = 1 }; };
template <> struct ks_arith<unsigned long long> { enum { ok = 1 }; };
template <> struct ks_arith<bool> { enum { ok = 1 }; };
template <> struct ks_arith<float> { enum { ok = 1 }; };
template <> struct ks_arith<double> { enum { ok = 1 }; };
template <bool B, typename R> struct ks_enable_if {};
template <typename R> struct ks_enable_if<true, R> { typedef R type; };
template <typename A, typename B>
static __device__ __forceinline__ typename ks_enable_if<ks_arith<A>::ok && ks_arith<B>::ok, double>::type pow(A x, B y) {
  return pow((double)x, (double)y);
}
static __device__ __forceinline__ float fma(float x, float y, float z) { return fmaf(x, y, z); }
static __device__ __forceinline__ float abs(float x) { return fabsf(x); }
static __device__ __forceinline__ double abs(double x) { return fabs(x); }
#undef KS_F1
#undef KS_F2

// Device printf: clang lowers a call to it into vprintf with a packed
// argument buffer, which the simulator formats (Result.Stdout).
extern "C" __device__ int printf(const char *, ...);

// assert() (assert.h in the prelude directory) prints its message here on failure,
// in the form CUDA's device assert prints; the macro then executes trap at the
// assert's own line, which ends the launch.
static __host__ __device__ __forceinline__ void __kernelscope_assert_fail(const char *expr, const char *file, unsigned int line,
                                                                          const char *func) {
  printf("%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n", file, line, func, blockIdx.x,
         blockIdx.y, blockIdx.z, threadIdx.x, threadIdx.y, threadIdx.z, expr);
}

// Device malloc and free (clang's <new> and CUB's allocator refer to them): the
// device heap is not simulated, so a call prints that and traps, which ends the launch
// with an error.
extern "C" __device__ inline __attribute__((always_inline)) void *malloc(size_t n) {
  printf("device malloc is not simulated (malloc of %llu bytes in device code)\n", (unsigned long long)n);
  __builtin_trap();
  return 0;
}
extern "C" __device__ inline __attribute__((always_inline)) void free(void *p) {
  printf("device free is not simulated (free(%p) in device code)\n", p);
  __builtin_trap();
}

// Texture fetches and device-side launches (dynamic parallelism) are not simulated:
// declared so that code mentioning them compiles; a call prints that and traps.
template <class T> static __device__ inline __attribute__((always_inline)) T tex1Dfetch(cudaTextureObject_t, int) {
  printf("texture fetches are not simulated (tex1Dfetch in device code)\n");
  __builtin_trap();
  return T();
}
extern "C" __device__ inline __attribute__((always_inline)) void *cudaGetParameterBuffer(size_t, size_t) {
  printf("device-side kernel launches are not simulated (cudaGetParameterBuffer in device code)\n");
  __builtin_trap();
  return 0;
}
extern "C" __device__ inline __attribute__((always_inline)) cudaError_t cudaLaunchDevice(void *, void *, dim3, dim3, unsigned int, cudaStream_t) {
  printf("device-side kernel launches are not simulated (cudaLaunchDevice in device code)\n");
  __builtin_trap();
  return cudaErrorNotSupported;
}

namespace std {
using ::min; using ::max; using ::sqrt; using ::exp; using ::exp2; using ::log; using ::log2;
using ::log10; using ::sin; using ::cos; using ::tan; using ::tanh; using ::pow; using ::fabs;
using ::floor; using ::ceil; using ::fma; using ::fmin; using ::fmax; using ::abs;
}

// __trap() as a builtin at the caller's own line: clang's wrapper (an inline function
// holding the trap instruction) would give the trap the header's line, and the report would
// have to guess the user's. Defined after clang's headers so their definition is untouched.
#define __trap() __builtin_trap()

#include "kernelscope_names_pop.h"
#endif // KERNELSCOPE_PRELUDE_H
