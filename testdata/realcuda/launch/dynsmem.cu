// Dynamic shared memory after a static array: each block reverses its slice of
// `in` through `tile` (blockDim.x floats given at launch) and adds a bias kept in
// static shared memory. Thread 0 of block 0 records what the hardware reports
// for the launch's shared memory and the warp size.
extern "C" __global__ void reverse_dyn(const float *in, float *out, unsigned *info, int n)
{
    __shared__ float bias[32];
    extern __shared__ float tile[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    if (t < 32)
        bias[t] = 0.5f * (float)t;
    tile[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    int r = blockDim.x - 1 - t;
    if (i < n)
        out[i] = tile[r] + bias[r % 32];
    if (i == 0) {
        unsigned dyn, total;
        asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dyn));
        asm volatile("mov.u32 %0, %%total_smem_size;" : "=r"(total));
        info[0] = dyn;
        info[1] = total;
        info[2] = warpSize;
        info[3] = blockDim.x;
    }
}
