// Kernels declared the way public CUDA code declares them: a template launched
// as MatrixMul<16> or MatrixMul<8>, __launch_bounds__ between void and the name,
// __restrict__ const pointers, a default argument and macros in the signature.
#define RESTRICT __restrict__
#define KERNEL extern "C" __global__

template <int BS>
__global__ void __launch_bounds__(BS * BS) MatrixMul(float *RESTRICT C, const float *RESTRICT A,
                                                     const float *RESTRICT B, int wA, int wB,
                                                     float alpha = 0.75f)
{
    __shared__ float As[BS][BS];
    __shared__ float Bs[BS][BS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * BS + ty, col = blockIdx.x * BS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < wA; k0 += BS) {
        As[ty][tx] = A[row * wA + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * wB + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BS; k++)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * wB + col] = alpha * acc;
}

template __global__ void MatrixMul<16>(float *, const float *, const float *, int, int, float);
template __global__ void MatrixMul<8>(float *, const float *, const float *, int, int, float);

KERNEL void __launch_bounds__(256, 2) saxpy_attr(int n, float a, const float *RESTRICT x,
                                                 float *RESTRICT y /* in and out */)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}
