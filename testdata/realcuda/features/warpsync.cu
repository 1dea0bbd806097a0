// Warp-synchronous reduction tails (this project's own kernels): ws_volatile is the
// classic pre-Volta tail on a volatile shared array with no __syncwarp(), which is a race
// under independent thread scheduling (compute-sanitizer's racecheck warns "Warp Level
// Programming" hazards); ws_syncwarp separates each step's reads from its writes with
// __syncwarp(), the fix CUDA's programming guide gives. Both launched <<<4, 256>>>.
__global__ void ws_volatile(const int *in, int *out)
{
    __shared__ int s[256];
    unsigned int t = threadIdx.x;
    s[t] = in[blockIdx.x * 256 + t];
    __syncthreads();
    for (unsigned int st = 128; st > 32; st >>= 1) {
        if (t < st) s[t] += s[t + st];
        __syncthreads();
    }
    if (t < 32) {
        volatile int *v = s;
        v[t] += v[t + 32];
        v[t] += v[t + 16];
        v[t] += v[t + 8];
        v[t] += v[t + 4];
        v[t] += v[t + 2];
        v[t] += v[t + 1];
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

__global__ void ws_syncwarp(const int *in, int *out)
{
    __shared__ int s[256];
    unsigned int t = threadIdx.x;
    s[t] = in[blockIdx.x * 256 + t];
    __syncthreads();
    for (unsigned int st = 128; st > 32; st >>= 1) {
        if (t < st) s[t] += s[t + st];
        __syncthreads();
    }
    if (t < 32) {
        int v = s[t] + s[t + 32];
        __syncwarp();
        for (int off = 16; off > 0; off >>= 1) {
            s[t] = v;
            __syncwarp();
            v += s[t + off];
            __syncwarp();
        }
        s[t] = v;
    }
    if (t == 0) out[blockIdx.x] = s[0];
}
