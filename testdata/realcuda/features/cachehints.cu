// Every cache-hint load and store (this project's own kernel): __ldg, __ldca, __ldcg,
// __ldcs, __ldlu, __ldcv and __stwb, __stcg, __stcs, __stwt, on scalar and vector types.
// hints<<<2, 128>>>(in, out): in and out hold 256 * 64 bytes; every thread copies its
// 64-byte slot with a mix of widths and hints and adds a per-hint constant so a
// swapped pair of hints would show.

#define HINT_COPY(LD, ST, T, OFF, ADD)                                          \
    do {                                                                        \
        const T *s_ = (const T *)(src + (OFF));                                 \
        T *d_ = (T *)(dst + (OFF));                                             \
        ST(d_, (T)(LD(s_) + (ADD)));                                            \
    } while (0)

__global__ void hints(const unsigned char *in, unsigned char *out)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned char *src = in + i * 64;
    unsigned char *dst = out + i * 64;
    HINT_COPY(__ldg, __stwb, int, 0, 1);
    HINT_COPY(__ldca, __stcg, unsigned int, 4, 2u);
    HINT_COPY(__ldcg, __stcs, float, 8, 0.5f);
    HINT_COPY(__ldcs, __stwt, short, 12, 3);
    HINT_COPY(__ldlu, __stwb, unsigned short, 14, 4);
    HINT_COPY(__ldcv, __stcg, long long, 16, 5ll);
    HINT_COPY(__ldca, __stcs, double, 24, 0.25);
    HINT_COPY(__ldcs, __stwt, signed char, 32, 6);
    HINT_COPY(__ldcg, __stwb, unsigned char, 33, 7);
    HINT_COPY(__ldlu, __stcg, char, 34, 8);
    HINT_COPY(__ldcv, __stcs, unsigned long long, 40, 9ull);
    {
        float2 a = __ldcs((const float2 *)(src + 48));
        a.x += 1.0f;
        a.y -= 1.0f;
        __stcs((float2 *)(dst + 48), a);
        int2 b = __ldca((const int2 *)(src + 56));
        b.x ^= 0x55;
        b.y += 11;
        __stwt((int2 *)(dst + 56), b);
    }
    if (i % 4 == 0) { // a 16-byte vector per 4 threads, over the first 16 bytes of the next 3 slots
        float4 f = __ldcg((const float4 *)(src + 64 + 0));
        f.x *= 2.0f;
        f.w = -f.w;
        __stcg((float4 *)(dst + 64 + 0), f);
        int4 n = __ldlu((const int4 *)(src + 128 + 0));
        n.y += 100;
        __stwb((int4 *)(dst + 128 + 0), n);
        uint4 u = __ldcv((const uint4 *)(src + 192 + 0));
        u.z |= 1u;
        __stcs((uint4 *)(dst + 192 + 0), u);
    }
    if (i % 4 == 0) {
        double2 v = __ldg((const double2 *)(src + 64 + 16));
        v.x += 1.0;
        __stwt((double2 *)(dst + 64 + 16), v);
    }
}
