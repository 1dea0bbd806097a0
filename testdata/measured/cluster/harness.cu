// Host harness for cluster.cu (this project's own code): every launch of
// gpu/analysis/cluster_test.go, with arange() inputs, writing each output buffer to
// OUTDIR/NAME.out.bin, and the limits the runtime reports (cooperative residency,
// active clusters, the error of a grid not divisible by its cluster) to OUTDIR/limits.txt.
// Built with: nvcc -O2 -arch=sm_90 -o harness harness.cu
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include <cuda_runtime.h>
#include "cluster.cu"

#define CHECK(x)                                                                                 \
    do {                                                                                         \
        cudaError_t e_ = (x);                                                                    \
        if (e_ != cudaSuccess) {                                                                 \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
            exit(1);                                                                             \
        }                                                                                        \
    } while (0)

static std::string outdir;
static FILE *limits;

static unsigned *arange(size_t n)
{
    std::vector<unsigned> h(n);
    for (size_t i = 0; i < n; i++) h[i] = (unsigned)i;
    unsigned *d;
    CHECK(cudaMalloc(&d, n * 4));
    CHECK(cudaMemcpy(d, h.data(), n * 4, cudaMemcpyHostToDevice));
    return d;
}

template <class T> static T *zeros(size_t n)
{
    T *d;
    CHECK(cudaMalloc(&d, n * sizeof(T)));
    CHECK(cudaMemset(d, 0, n * sizeof(T)));
    return d;
}

static void dump(const std::string &name, const void *d, size_t n)
{
    std::vector<char> h(n);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h.data(), d, n, cudaMemcpyDeviceToHost));
    std::string path = outdir + "/" + name + ".out.bin";
    FILE *f = fopen(path.c_str(), "wb");
    if (!f || fwrite(h.data(), 1, n, f) != n) { fprintf(stderr, "cannot write %s\n", path.c_str()); exit(1); }
    fclose(f);
}

// launch runs kernel k with a cluster of cx x cy x 1 blocks (cudaLaunchKernelEx).
template <class... A> static cudaError_t launch(void (*k)(A...), dim3 grid, dim3 block, unsigned cx, unsigned cy, A... args)
{
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = grid;
    cfg.blockDim = block;
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = cx;
    at[0].val.clusterDim.y = cy;
    at[0].val.clusterDim.z = 1;
    cfg.attrs = at;
    cfg.numAttrs = 1;
    return cudaLaunchKernelEx(&cfg, k, args...);
}

int main(int argc, char **argv)
{
    if (argc != 2) { fprintf(stderr, "usage: harness OUTDIR\n"); return 2; }
    outdir = argv[1];
    limits = fopen((outdir + "/limits.txt").c_str(), "w");
    const int n = 8192;
    unsigned *in = arange(1 << 20);
    for (unsigned c : {2u, 4u}) {
        unsigned *o = zeros<unsigned>(8 / c * NBINS);
        CHECK(launch(dsmem_hist, dim3(8), dim3(128), c, 1, (const unsigned *)in, o, n));
        CHECK(cudaGetLastError());
        dump("dsmem_hist_c" + std::to_string(c), o, 8 / c * NBINS * 4);
        float *f = zeros<float>(8 / c);
        CHECK(launch(dsmem_reduce, dim3(8), dim3(256), c, 1, (const unsigned *)in, f, 2 * n));
        dump("dsmem_reduce_c" + std::to_string(c), f, 8 / c * 4);
        unsigned *p = zeros<unsigned>(8 * 128);
        CHECK(launch(pipeline, dim3(8), dim3(128), c, 1, (const unsigned *)in, p, 10));
        dump("pipeline_c" + std::to_string(c), p, 8 * 128 * 4);
    }
    {
        unsigned *o = zeros<unsigned>(8 * 128 * 3), *s = zeros<unsigned>(8 * 16), *a = zeros<unsigned>(8 * 4);
        ring<<<8, 128>>>(o, s, a);
        CHECK(cudaGetLastError());
        dump("ring_out", o, 8 * 128 * 3 * 4);
        dump("ring_spec", s, 8 * 16 * 4);
        dump("ring_addrs", a, 8 * 4 * 4);
    }
    {
        unsigned *o = zeros<unsigned>(16 * 8);
        CHECK(launch(cluster_dims, dim3(4, 4), dim3(64), 2, 2, o));
        dump("cluster_dims", o, 16 * 8 * 4);
    }
    {
        unsigned *o = zeros<unsigned>(4 * 256);
        CHECK(launch(bulk_peer, dim3(4), dim3(128), 2, 1, (const unsigned *)in, o));
        dump("bulk_peer", o, 4 * 256 * 4);
    }
    {
        int blocks = 264, threads = 256, m = blocks * threads * 2;
        float *part = zeros<float>(blocks), *o = zeros<float>(2 + blocks * threads);
        unsigned *cnt = zeros<unsigned>(1);
        void *args[] = {&in, &part, &o, &cnt, &m};
        CHECK(cudaLaunchCooperativeKernel((const void *)grid_reduce, dim3(blocks), dim3(threads), args, 0, 0));
        CHECK(cudaGetLastError());
        dump("grid_reduce_out", o, (2 + blocks * threads) * 4);
        dump("grid_reduce_partial", part, blocks * 4);
        int perSM = 0, sms = 0;
        CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, grid_reduce, threads, 0));
        CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
        fprintf(limits, "grid_reduce block %d: %d blocks per SM, %d SMs\n", threads, perSM, sms);
        cudaError_t e = cudaLaunchCooperativeKernel((const void *)grid_reduce, dim3(perSM * sms + 1), dim3(threads), args, 0, 0);
        fprintf(limits, "cooperative grid_reduce<<<%d, %d>>>: %s (%s)\n", perSM * sms + 1, threads, cudaGetErrorName(e), cudaGetErrorString(e));
        cudaGetLastError();
        cudaDeviceSynchronize();
    }
    for (unsigned c : {1u, 2u, 4u, 8u, 16u}) {
        cudaLaunchConfig_t cfg = {};
        cfg.gridDim = dim3(1024);
        cfg.blockDim = dim3(128);
        cudaLaunchAttribute at[1];
        at[0].id = cudaLaunchAttributeClusterDimension;
        at[0].val.clusterDim.x = c;
        at[0].val.clusterDim.y = 1;
        at[0].val.clusterDim.z = 1;
        cfg.attrs = at;
        cfg.numAttrs = 1;
        if (c == 16) cudaFuncSetAttribute(dsmem_hist, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
        int nc = -1;
        cudaError_t e = cudaOccupancyMaxActiveClusters(&nc, dsmem_hist, &cfg);
        fprintf(limits, "dsmem_hist block 128 cluster %u: max active clusters %d (%s)\n", c, nc, cudaGetErrorName(e));
        cudaGetLastError();
    }
    {
        unsigned *o = zeros<unsigned>(2 * NBINS);
        cudaError_t e = launch(dsmem_hist, dim3(6), dim3(128), 4, 1, (const unsigned *)in, o, n);
        fprintf(limits, "dsmem_hist<<<6, 128>>> cluster 4: %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
        cudaGetLastError();
        cudaDeviceSynchronize();
        ring<<<4, 128>>>(o, o, o);
        e = cudaGetLastError();
        fprintf(limits, "ring<<<4, 128>>> (cluster 4 by __cluster_dims__): %s\n", cudaGetErrorName(e));
        cudaDeviceSynchronize();
        ring<<<6, 128>>>(o, o, o);
        e = cudaGetLastError();
        fprintf(limits, "ring<<<6, 128>>> (cluster 4 by __cluster_dims__): %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
        cudaDeviceSynchronize();
    }
    fclose(limits);
    printf("harness: done\n");
    return 0;
}
