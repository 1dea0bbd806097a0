// Pointers to vector types and to a struct: automatic arguments must size these
// buffers by the pointee (16, 8 and 16 bytes per thread), not by 4 bytes.
struct Particle {
    float x, y, z;
    int id;
};

extern "C" __global__ void vec_types(const float4 *a, float4 *b, const int2 *c, int2 *d,
                                     const Particle *p, Particle *q, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float4 v = a[i];
    b[i] = make_float4(v.w, v.z * 2.0f, v.y + 1.0f, v.x);
    int2 w = c[i];
    d[i] = make_int2(w.y, w.x + i);
    Particle t = p[i];
    t.x = t.x + t.y * t.z;
    t.id = t.id * 2 + 1;
    q[i] = t;
}
