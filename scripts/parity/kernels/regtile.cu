// KernelScope's own kernels for clang/nvcc parity (scripts/parity): register tiles,
// float4 read-modify-write along strided rows, fully unrolled loops, read-only loads.
// nvcc's PTX from an H200 is in h200/regtile.sm_90.ptx (run_h200.sh).

// A 2x2 warp-tile of 8x4 register tiles, no #pragma unroll: the loops have constant
// trip counts; the accumulator array stays in registers only when they are unrolled.
template <int WM, int WN, int TM, int TN, int BK>
__global__ void tile_nopragma(int N, float alpha, float beta, const float *As, const float *Bs, float *C)
{
    float acc[WM * TM * WN * TN] = {0.0f};
    float rm[WM * TM] = {0.0f};
    float rn[WN * TN] = {0.0f};
    for (int d = 0; d < BK; ++d) {
        for (int a = 0; a < WM; ++a)
            for (int i = 0; i < TM; ++i)
                rm[a * TM + i] = As[d * 128 + a * 32 + threadIdx.x % 4 * TM + i];
        for (int b = 0; b < WN; ++b)
            for (int i = 0; i < TN; ++i)
                rn[b * TN + i] = Bs[d * 128 + b * 32 + threadIdx.x / 4 * TN + i];
        for (int a = 0; a < WM; ++a)
            for (int b = 0; b < WN; ++b)
                for (int m = 0; m < TM; ++m)
                    for (int n = 0; n < TN; ++n)
                        acc[(a * TM + m) * (WN * TN) + b * TN + n] += rm[a * TM + m] * rn[b * TN + n];
    }
    for (int a = 0; a < WM; ++a)
        for (int b = 0; b < WN; ++b)
            for (int m = 0; m < TM; ++m)
                for (int n = 0; n < TN; n += 4) {
                    float *p = C + (a * 32 + m) * N + b * 32 + n;
                    float4 t = reinterpret_cast<float4 *>(p)[0];
                    const int i = (a * TM + m) * (WN * TN) + b * TN + n;
                    t.x = alpha * acc[i + 0] + beta * t.x;
                    t.y = alpha * acc[i + 1] + beta * t.y;
                    t.z = alpha * acc[i + 2] + beta * t.z;
                    t.w = alpha * acc[i + 3] + beta * t.w;
                    reinterpret_cast<float4 *>(p)[0] = t;
                }
}
template __global__ void tile_nopragma<2, 2, 8, 4, 16>(int, float, float, const float *, const float *, float *);

// The same with #pragma unroll on every loop but the outer one.
template <int WM, int WN, int TM, int TN, int BK>
__global__ void tile_pragma(int N, float alpha, float beta, const float *As, const float *Bs, float *C)
{
    float acc[WM * TM * WN * TN] = {0.0f};
    float rm[WM * TM] = {0.0f};
    float rn[WN * TN] = {0.0f};
    for (int d = 0; d < BK; ++d) {
#pragma unroll
        for (int a = 0; a < WM; ++a)
#pragma unroll
            for (int i = 0; i < TM; ++i)
                rm[a * TM + i] = As[d * 128 + a * 32 + threadIdx.x % 4 * TM + i];
#pragma unroll
        for (int b = 0; b < WN; ++b)
#pragma unroll
            for (int i = 0; i < TN; ++i)
                rn[b * TN + i] = Bs[d * 128 + b * 32 + threadIdx.x / 4 * TN + i];
#pragma unroll
        for (int a = 0; a < WM; ++a)
#pragma unroll
            for (int b = 0; b < WN; ++b)
#pragma unroll
                for (int m = 0; m < TM; ++m)
#pragma unroll
                    for (int n = 0; n < TN; ++n)
                        acc[(a * TM + m) * (WN * TN) + b * TN + n] += rm[a * TM + m] * rn[b * TN + n];
    }
#pragma unroll
    for (int a = 0; a < WM; ++a)
#pragma unroll
        for (int b = 0; b < WN; ++b)
#pragma unroll
            for (int m = 0; m < TM; ++m)
#pragma unroll
                for (int n = 0; n < TN; n += 4) {
                    float *p = C + (a * 32 + m) * N + b * 32 + n;
                    float4 t = reinterpret_cast<float4 *>(p)[0];
                    const int i = (a * TM + m) * (WN * TN) + b * TN + n;
                    t.x = alpha * acc[i + 0] + beta * t.x;
                    t.y = alpha * acc[i + 1] + beta * t.y;
                    t.z = alpha * acc[i + 2] + beta * t.z;
                    t.w = alpha * acc[i + 3] + beta * t.w;
                    reinterpret_cast<float4 *>(p)[0] = t;
                }
}
template __global__ void tile_pragma<2, 2, 8, 4, 16>(int, float, float, const float *, const float *, float *);

// Eight float4 read-modify-writes down a column of rows N floats apart.
__global__ void rows_rmw8(float *C, int N, float a)
{
#pragma unroll
    for (int m = 0; m < 8; m++) {
        float4 t = reinterpret_cast<float4 *>(C + m * N)[threadIdx.x];
        t.x *= a; t.y *= a; t.z *= a; t.w *= a;
        reinterpret_cast<float4 *>(C + m * N)[threadIdx.x] = t;
    }
}

// Constant trip counts without a pragma: 64 and 256 iterations.
__global__ void sum64(const float *a, float *o, int s)
{
    float acc = 0;
    for (int i = 0; i < 64; i++) acc += a[i * s + threadIdx.x];
    o[threadIdx.x] = acc;
}
__global__ void sum256(const float *a, float *o, int s)
{
    float acc = 0;
    for (int i = 0; i < 256; i++) acc += a[i * s + threadIdx.x];
    o[threadIdx.x] = acc;
}

// float4 copies of which only x, y, z are used.
__global__ void xyz_only(const float4 *p, float *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0;
    for (int j = 0; j < n; j++) {
        float4 q = p[j];
        s += q.x * q.y - q.z;
    }
    o[i] = s;
}

// Read-only pointers: const only, const __restrict__, __ldg.
__global__ void ro_const(int n, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i] + y[i];
}
__global__ void ro_restrict(int n, const float *__restrict__ x, float *__restrict__ y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i] + y[i];
}
__global__ void ro_ldg(int n, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * __ldg(&x[i]) + y[i];
}

// Vector copies of every 8- and 16-byte type.
__global__ void vec_copies(const float2 *a, float2 *b, const int4 *c, int4 *d, const double2 *e, double2 *f,
                           const int2 *g, int2 *h)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    b[i] = a[i];
    d[i] = c[i];
    f[i] = e[i];
    h[i] = g[i];
}

// A local array indexed by a runtime value (local memory on both compilers).
__global__ void indexed_local(const int *idx, float *o)
{
    float t[16];
#pragma unroll
    for (int i = 0; i < 16; i++) t[i] = i * 0.5f;
    o[threadIdx.x] = t[idx[threadIdx.x] & 15];
}
