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
