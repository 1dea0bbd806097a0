// The math-function sweep's kernel shapes (this project's own code), included by
// mathf.cu, mathd.cu and mathx.cu. Thread i evaluates one function at sample
// k = i * kstride: x's bits are lo + k * step with the sign bit (k & 1) when sym is set;
// a second argument y has the bits ylo + ((k * 40503) & 0xffff) * ystep with the sign
// bit ((k >> 1) & 1) when sym is set, and a third z the bits ylo + ((k * 9973) & 0xffff) * ystep.
// Integer arithmetic only, so nvcc and clang make the same arguments.
#pragma once

__device__ __forceinline__ float sw_xf(unsigned int k, unsigned int lo, unsigned int step, int sym)
{
    unsigned int b = lo + k * step;
    if (sym) b |= (k & 1u) << 31;
    return __uint_as_float(b);
}
__device__ __forceinline__ float sw_yf(unsigned int k, unsigned int ylo, unsigned int ystep, int sym, unsigned int mul)
{
    unsigned int b = ylo + ((k * mul) & 0xffffu) * ystep;
    if (sym) b |= ((k >> 1) & 1u) << 31;
    return __uint_as_float(b);
}
__device__ __forceinline__ double sw_xd(unsigned long long k, unsigned long long lo, unsigned long long step, int sym)
{
    unsigned long long b = lo + k * step;
    if (sym) b |= (k & 1ull) << 63;
    return __longlong_as_double((long long)b);
}
__device__ __forceinline__ double sw_yd(unsigned long long k, unsigned long long ylo, unsigned long long ystep, int sym, unsigned long long mul)
{
    unsigned long long b = ylo + ((k * mul) & 0xffffull) * ystep;
    if (sym) b |= ((k >> 1) & 1ull) << 63;
    return __longlong_as_double((long long)b);
}

// sw_hash(k) mixes a sample index into 32 well-spread bits (integer arithmetic only):
// the SIMD sweep's arguments, nan's tag and jn/yn's order come from it, so the samples a
// test takes at any stride cover them all.
__device__ __forceinline__ unsigned int sw_hash(unsigned int k, unsigned int seed)
{
    unsigned int h = k * 0x9e3779b1u + seed;
    h ^= h >> 15;
    h *= 0x85ebca77u;
    h ^= h >> 13;
    h *= 0xc2b2ae3du;
    h ^= h >> 16;
    return h;
}
// The order n of the jn/yn sample k: one of 0 1 2 3 5 8 13 30.
__device__ __forceinline__ int sw_order(unsigned int k)
{
    const int n[8] = {0, 1, 2, 3, 5, 8, 13, 30};
    return n[sw_hash(k, 7u) >> 29];
}
// nan's tag for sample k: one of 16 strings (empty, decimal, octal, hex, invalid, overflowing).
__device__ __forceinline__ const char *sw_tag(unsigned int k)
{
    switch (sw_hash(k, 11u) >> 28) {
    case 0: return "";
    case 1: return "0";
    case 2: return "1";
    case 3: return "123";
    case 4: return "0x1f";
    case 5: return "0X1F";
    case 6: return "017";
    case 7: return "abc";
    case 8: return "12a";
    case 9: return "0x";
    case 10: return "99999999999999999999";
    case 11: return "0xfffffffffffffffff";
    case 12: return "-1";
    case 13: return "4503599627370495";
    case 14: return "0x7ffff";
    default: return "08";
    }
}
// A SIMD operand for sample k: well-mixed bits, or (every other 32 samples) bytes taken
// from the edge values 00 01 7f 80 81 fe ff 40.
__device__ __forceinline__ unsigned int sw_lanes(unsigned int k, unsigned int seed)
{
    unsigned int h = sw_hash(k, seed);
    if ((k >> 5) & 1u) {
        unsigned int r = 0;
        for (int i = 0; i < 4; i++) {
            unsigned int b = (h >> (8 * i)) & 7u;
            unsigned int v = b == 0 ? 0x00u : b == 1 ? 0x01u : b == 2 ? 0x7fu : b == 3 ? 0x80u : b == 4 ? 0x81u : b == 5 ? 0xfeu : b == 6 ? 0xffu : 0x40u;
            r |= v << (8 * i);
        }
        return r;
    }
    return h;
}

// SW_REG(KERNEL, "NAME") follows each kernel: the host harness defines it to list them.
#ifndef SW_REG
#define SW_REG(K, NAME)
#endif

// Every sweep kernel has the same parameters, floats or doubles: out, kstride, lo,
// step, ylo, ystep, sym.
#define SWF(NAME, EXPR)                                                                              \
    __global__ void mf_##NAME(float *o, unsigned int kstride, unsigned int lo, unsigned int step,    \
                              unsigned int ylo, unsigned int ystep, int sym)                         \
    {                                                                                                \
        unsigned int i = blockIdx.x * blockDim.x + threadIdx.x, k = i * kstride;                     \
        float x = sw_xf(k, lo, step, sym);                                                           \
        float y = sw_yf(k, ylo, ystep, sym, 40503u);                                                 \
        float z = sw_yf(k, ylo, ystep, 0, 9973u);                                                    \
        (void)y;                                                                                     \
        (void)z;                                                                                     \
        o[i] = (EXPR);                                                                               \
    }                                                                                                \
    SW_REG(mf_##NAME, #NAME)
#define SWD(NAME, EXPR)                                                                              \
    __global__ void md_##NAME(double *o, unsigned int kstride, unsigned long long lo,                \
                              unsigned long long step, unsigned long long ylo,                       \
                              unsigned long long ystep, int sym)                                     \
    {                                                                                                \
        unsigned long long i = blockIdx.x * blockDim.x + threadIdx.x, k = i * kstride;               \
        double x = sw_xd(k, lo, step, sym);                                                          \
        double y = sw_yd(k, ylo, ystep, sym, 40503ull);                                              \
        (void)y;                                                                                     \
        o[i] = (EXPR);                                                                               \
    }                                                                                                \
    SW_REG(md_##NAME, #NAME)
// The SIMD sweep (mathv.cu): out, kstride, then the float shape's parameters (unused);
// x is sw_lanes(k, 1); y is x for one sample in four, x with one bit flipped for another,
// and sw_lanes(k, 2) otherwise.
#define SWU(NAME, EXPR)                                                                              \
    __global__ void mu_##NAME(unsigned int *o, unsigned int kstride, unsigned int lo, unsigned int step, \
                              unsigned int ylo, unsigned int ystep, int sym)                         \
    {                                                                                                \
        unsigned int i = blockIdx.x * blockDim.x + threadIdx.x, k = i * kstride;                     \
        unsigned int x = sw_lanes(k, 1u), r = sw_hash(k, 3u) >> 30;                                  \
        unsigned int y = r == 0 ? x : r == 1 ? x ^ (1u << (sw_hash(k, 5u) >> 27)) : sw_lanes(k, 2u);  \
        (void)lo, (void)step, (void)ylo, (void)ystep, (void)sym;                                     \
        o[i] = (EXPR);                                                                               \
    }                                                                                                \
    SW_REG(mu_##NAME, #NAME)
