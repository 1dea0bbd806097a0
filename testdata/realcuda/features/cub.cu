// CUB block- and warp-level primitives (this project's own kernels). The clang path
// takes CUB from Debian's libcub-dev; nvcc from the CUDA toolkit. Only the primitives'
// documented results are used (no cub::Sum/cub::Max functors, renamed across versions).
#include <cub/cub.cuh>

#define CB 128
#define CIPT 4

struct CubMax {
    __device__ __forceinline__ int operator()(const int &a, const int &b) const { return a < b ? b : a; }
};

// cub_reduce<<<4, CB>>>: per block the int sum, the int max and the float sum.
__global__ void cub_reduce(const int *in, const float *fin, int *out, float *fout)
{
    typedef cub::BlockReduce<int, CB> R;
    typedef cub::BlockReduce<float, CB> RF;
    __shared__ typename R::TempStorage tmp;
    __shared__ typename RF::TempStorage ftmp;
    int v = in[blockIdx.x * CB + threadIdx.x];
    int s = R(tmp).Sum(v);
    __syncthreads();
    int m = R(tmp).Reduce(v, CubMax());
    float fs = RF(ftmp).Sum(fin[blockIdx.x * CB + threadIdx.x]);
    if (threadIdx.x == 0) {
        out[2 * blockIdx.x] = s;
        out[2 * blockIdx.x + 1] = m;
        fout[blockIdx.x] = fs;
    }
}

// cub_scan<<<4, CB>>>: inclusive and exclusive int sums, the block total, a float
// inclusive sum.
__global__ void cub_scan(const int *in, const float *fin, int *inc, int *exc, float *finc)
{
    typedef cub::BlockScan<int, CB> S;
    typedef cub::BlockScan<float, CB> SF;
    __shared__ typename S::TempStorage tmp;
    __shared__ typename SF::TempStorage ftmp;
    int i = blockIdx.x * CB + threadIdx.x;
    int a, b, total;
    S(tmp).InclusiveSum(in[i], a);
    __syncthreads();
    S(tmp).ExclusiveSum(in[i], b, total);
    float fa;
    SF(ftmp).InclusiveSum(fin[i], fa);
    inc[i] = a;
    exc[i] = b;
    finc[i] = fa;
    if (threadIdx.x == 0) exc[gridDim.x * CB + blockIdx.x] = total;
}

// cub_warp<<<4, CB>>>: per warp the int sum and the float sum; per 8-lane group the int sum.
__global__ void cub_warp(const int *in, const float *fin, int *out, float *fout)
{
    typedef cub::WarpReduce<int> W;
    typedef cub::WarpReduce<float> WF;
    typedef cub::WarpReduce<int, 8> W8;
    __shared__ typename W::TempStorage tmp[CB / 32];
    __shared__ typename WF::TempStorage ftmp[CB / 32];
    __shared__ typename W8::TempStorage tmp8[CB / 8];
    int w = threadIdx.x / 32, i = blockIdx.x * CB + threadIdx.x;
    int s = W(tmp[w]).Sum(in[i]);
    float fs = WF(ftmp[w]).Sum(fin[i]);
    int s8 = W8(tmp8[threadIdx.x / 8]).Sum(in[i]);
    if (threadIdx.x % 32 == 0) {
        out[blockIdx.x * (CB / 32) + w] = s;
        fout[blockIdx.x * (CB / 32) + w] = fs;
    }
    if (threadIdx.x % 8 == 0) out[4 * (CB / 32) + blockIdx.x * (CB / 8) + threadIdx.x / 8] = s8;
}

// cub_loadstore<<<4, CB>>>: BlockLoad (warp transpose) then BlockStore (direct and
// transpose) of CIPT ints per thread, each item times its slot plus one.
__global__ void cub_loadstore(const int *in, int *out1, int *out2)
{
    typedef cub::BlockLoad<int, CB, CIPT, cub::BLOCK_LOAD_WARP_TRANSPOSE> L;
    typedef cub::BlockStore<int, CB, CIPT, cub::BLOCK_STORE_DIRECT> SD;
    typedef cub::BlockStore<int, CB, CIPT, cub::BLOCK_STORE_TRANSPOSE> ST;
    __shared__ typename L::TempStorage lt;
    __shared__ typename ST::TempStorage st;
    int items[CIPT];
    int off = blockIdx.x * CB * CIPT;
    L(lt).Load(in + off, items);
    for (int k = 0; k < CIPT; k++) items[k] = items[k] * (k + 1);
    SD().Store(out1 + off, items);
    ST(st).Store(out2 + off, items);
}

// cub_sort<<<4, CB>>>: BlockRadixSort of CIPT keys per thread (blocked order), and of
// key-value pairs, then a striped store.
__global__ void cub_sort(const int *in, int *keys, int *pk, int *pv)
{
    typedef cub::BlockRadixSort<int, CB, CIPT> RS;
    typedef cub::BlockRadixSort<int, CB, CIPT, int> RSP;
    __shared__ union {
        typename RS::TempStorage k;
        typename RSP::TempStorage p;
    } tmp;
    int off = blockIdx.x * CB * CIPT;
    int k[CIPT], kk[CIPT], v[CIPT];
    for (int j = 0; j < CIPT; j++) {
        k[j] = in[off + threadIdx.x * CIPT + j];
        kk[j] = k[j] % 97;
        v[j] = threadIdx.x * CIPT + j;
    }
    RS(tmp.k).Sort(k);
    for (int j = 0; j < CIPT; j++) keys[off + threadIdx.x * CIPT + j] = k[j];
    __syncthreads();
    RSP(tmp.p).SortBlockedToStriped(kk, v);
    for (int j = 0; j < CIPT; j++) {
        pk[off + j * CB + threadIdx.x] = kk[j];
        pv[off + j * CB + threadIdx.x] = v[j];
    }
}
