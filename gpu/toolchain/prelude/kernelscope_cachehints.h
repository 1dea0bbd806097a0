// KernelScope: CUDA's cache-hint loads and stores (CUDA C++ Programming Guide,
// "Load Functions Using Cache Hints" and "Store Functions Using Cache Hints"), each
// one PTX ld.global.{ca,cg,cs,lu,cv} or st.global.{wb,cg,cs,wt} instruction written
// as inline assembly, for every documented scalar and vector type. __ldg (ld.global.nc)
// comes from clang's own intrinsics header. Included by kernelscope_prelude.h.
#pragma clang system_header
#ifndef KERNELSCOPE_CACHEHINTS_H
#define KERNELSCOPE_CACHEHINTS_H

// One load function NAME with cache operator OP for the scalar type T held in a
// register of constraint C as PTX type PT (8-bit values travel in 32-bit registers).
#define KS_LD1(NAME, OP, T, R, C, PT)                                                     \
  static __device__ __forceinline__ T NAME(const T *p) {                                  \
    R v;                                                                                  \
    asm("ld.global." OP "." PT " %0, [%1];" : "=" C(v) : "l"(p) : "memory");              \
    return (T)v;                                                                          \
  }
#define KS_LD2(NAME, OP, V, E, R, C, PT)                                                  \
  static __device__ __forceinline__ V NAME(const V *p) {                                  \
    R a, b;                                                                               \
    asm("ld.global." OP ".v2." PT " {%0, %1}, [%2];" : "=" C(a), "=" C(b) : "l"(p) : "memory"); \
    V v;                                                                                  \
    v.x = (E)a;                                                                           \
    v.y = (E)b;                                                                           \
    return v;                                                                             \
  }
#define KS_LD4(NAME, OP, V, E, R, C, PT)                                                  \
  static __device__ __forceinline__ V NAME(const V *p) {                                  \
    R a, b, c, d;                                                                         \
    asm("ld.global." OP ".v4." PT " {%0, %1, %2, %3}, [%4];"                              \
        : "=" C(a), "=" C(b), "=" C(c), "=" C(d) : "l"(p) : "memory");                     \
    V v;                                                                                  \
    v.x = (E)a;                                                                           \
    v.y = (E)b;                                                                           \
    v.z = (E)c;                                                                           \
    v.w = (E)d;                                                                           \
    return v;                                                                             \
  }
#define KS_ST1(NAME, OP, T, R, C, PT)                                                     \
  static __device__ __forceinline__ void NAME(T *p, T v) {                                \
    asm volatile("st.global." OP "." PT " [%0], %1;" : : "l"(p), C((R)v) : "memory");     \
  }
#define KS_ST2(NAME, OP, V, R, C, PT)                                                     \
  static __device__ __forceinline__ void NAME(V *p, V v) {                                \
    asm volatile("st.global." OP ".v2." PT " [%0], {%1, %2};" : : "l"(p), C((R)v.x), C((R)v.y) : "memory"); \
  }
#define KS_ST4(NAME, OP, V, R, C, PT)                                                     \
  static __device__ __forceinline__ void NAME(V *p, V v) {                                \
    asm volatile("st.global." OP ".v4." PT " [%0], {%1, %2, %3, %4};"                     \
                 : : "l"(p), C((R)v.x), C((R)v.y), C((R)v.z), C((R)v.w) : "memory");      \
  }

// Every documented type, for one load (LD) or store (ST) family.
#define KS_HINT_TYPES(K, NAME, OP)                                                        \
  K##1(NAME, OP, char, int, "r", "s8")                                                    \
  K##1(NAME, OP, signed char, int, "r", "s8")                                             \
  K##1(NAME, OP, unsigned char, unsigned int, "r", "u8")                                  \
  K##1(NAME, OP, short, short, "h", "s16")                                                \
  K##1(NAME, OP, unsigned short, unsigned short, "h", "u16")                              \
  K##1(NAME, OP, int, int, "r", "s32")                                                    \
  K##1(NAME, OP, unsigned int, unsigned int, "r", "u32")                                  \
  K##1(NAME, OP, long, long, "l", "s64")                                                  \
  K##1(NAME, OP, unsigned long, unsigned long, "l", "u64")                                \
  K##1(NAME, OP, long long, long long, "l", "s64")                                        \
  K##1(NAME, OP, unsigned long long, unsigned long long, "l", "u64")                      \
  K##1(NAME, OP, float, float, "f", "f32")                                                \
  K##1(NAME, OP, double, double, "d", "f64")
#define KS_LD_VECS(NAME, OP)                                                              \
  KS_LD2(NAME, OP, char2, signed char, int, "r", "s8")                                    \
  KS_LD4(NAME, OP, char4, signed char, int, "r", "s8")                                    \
  KS_LD2(NAME, OP, uchar2, unsigned char, unsigned int, "r", "u8")                        \
  KS_LD4(NAME, OP, uchar4, unsigned char, unsigned int, "r", "u8")                        \
  KS_LD2(NAME, OP, short2, short, short, "h", "s16")                                      \
  KS_LD4(NAME, OP, short4, short, short, "h", "s16")                                      \
  KS_LD2(NAME, OP, ushort2, unsigned short, unsigned short, "h", "u16")                   \
  KS_LD4(NAME, OP, ushort4, unsigned short, unsigned short, "h", "u16")                   \
  KS_LD2(NAME, OP, int2, int, int, "r", "s32")                                            \
  KS_LD4(NAME, OP, int4, int, int, "r", "s32")                                            \
  KS_LD2(NAME, OP, uint2, unsigned int, unsigned int, "r", "u32")                         \
  KS_LD4(NAME, OP, uint4, unsigned int, unsigned int, "r", "u32")                         \
  KS_LD2(NAME, OP, longlong2, long long, long long, "l", "s64")                           \
  KS_LD2(NAME, OP, ulonglong2, unsigned long long, unsigned long long, "l", "u64")        \
  KS_LD2(NAME, OP, float2, float, float, "f", "f32")                                      \
  KS_LD4(NAME, OP, float4, float, float, "f", "f32")                                      \
  KS_LD2(NAME, OP, double2, double, double, "d", "f64")
#define KS_ST_VECS(NAME, OP)                                                              \
  KS_ST2(NAME, OP, char2, int, "r", "s8")                                                 \
  KS_ST4(NAME, OP, char4, int, "r", "s8")                                                 \
  KS_ST2(NAME, OP, uchar2, unsigned int, "r", "u8")                                       \
  KS_ST4(NAME, OP, uchar4, unsigned int, "r", "u8")                                       \
  KS_ST2(NAME, OP, short2, short, "h", "s16")                                             \
  KS_ST4(NAME, OP, short4, short, "h", "s16")                                             \
  KS_ST2(NAME, OP, ushort2, unsigned short, "h", "u16")                                   \
  KS_ST4(NAME, OP, ushort4, unsigned short, "h", "u16")                                   \
  KS_ST2(NAME, OP, int2, int, "r", "s32")                                                 \
  KS_ST4(NAME, OP, int4, int, "r", "s32")                                                 \
  KS_ST2(NAME, OP, uint2, unsigned int, "r", "u32")                                       \
  KS_ST4(NAME, OP, uint4, unsigned int, "r", "u32")                                       \
  KS_ST2(NAME, OP, longlong2, long long, "l", "s64")                                      \
  KS_ST2(NAME, OP, ulonglong2, unsigned long long, "l", "u64")                            \
  KS_ST2(NAME, OP, float2, float, "f", "f32")                                             \
  KS_ST4(NAME, OP, float4, float, "f", "f32")                                             \
  KS_ST2(NAME, OP, double2, double, "d", "f64")

#define KS_LOADS(NAME, OP) KS_HINT_TYPES(KS_LD, NAME, OP) KS_LD_VECS(NAME, OP)
#define KS_STORES(NAME, OP) KS_HINT_TYPES(KS_ST, NAME, OP) KS_ST_VECS(NAME, OP)
KS_LOADS(__ldca, "ca")  // cache at all levels
KS_LOADS(__ldcg, "cg")  // cache in L2, not L1
KS_LOADS(__ldcs, "cs")  // streaming: likely accessed once
KS_LOADS(__ldlu, "lu")  // last use
KS_LOADS(__ldcv, "cv")  // do not cache; fetch again
KS_STORES(__stwb, "wb") // write back at all levels
KS_STORES(__stcg, "cg") // cache in L2, not L1
KS_STORES(__stcs, "cs") // streaming
KS_STORES(__stwt, "wt") // write through to system memory
#undef KS_LOADS
#undef KS_STORES
#undef KS_HINT_TYPES
#undef KS_LD_VECS
#undef KS_ST_VECS
#undef KS_LD1
#undef KS_LD2
#undef KS_LD4
#undef KS_ST1
#undef KS_ST2
#undef KS_ST4

#endif // KERNELSCOPE_CACHEHINTS_H
