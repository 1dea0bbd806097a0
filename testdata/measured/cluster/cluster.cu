// Thread-block clusters, distributed shared memory and cooperative grid sync: this
// project's own kernels (KernelScope), run on an H200 by run_h200.sh and through both
// KernelScope paths by gpu/analysis/cluster_test.go. Inputs are arange() buffers; each
// kernel derives its values from them with integer hashing, so no input files are needed.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define NBINS 256

__device__ __forceinline__ unsigned mix(unsigned v) { return (v * 2654435761u) ^ (v >> 7); }
__device__ __forceinline__ float fval(unsigned v) { return (float)(mix(v) % 2001u) * 0.001f - 1.0f; }

// dsmem_hist: a histogram whose NBINS bins are spread over the shared memory of the
// cluster's blocks (block r holds bins [r*per, (r+1)*per)); every thread adds to the
// owning block's bin through distributed shared memory (cluster.map_shared_rank).
__global__ void dsmem_hist(const unsigned *in, unsigned *out, int n)
{
    __shared__ unsigned bins[NBINS];
    cg::cluster_group cl = cg::this_cluster();
    unsigned nb = cl.num_blocks();
    unsigned per = NBINS / nb;
    for (unsigned i = threadIdx.x; i < per; i += blockDim.x)
        bins[i] = 0;
    cl.sync();
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < (unsigned)n; i += gridDim.x * blockDim.x) {
        unsigned b = (mix(in[i]) >> 9) % NBINS;
        unsigned *dst = cl.map_shared_rank(bins, (int)(b / per));
        atomicAdd(dst + b % per, 1u);
    }
    cl.sync();
    unsigned cid = blockIdx.x / nb;
    for (unsigned i = threadIdx.x; i < per; i += blockDim.x)
        out[cid * NBINS + cl.block_rank() * per + i] = bins[i];
}

// dsmem_reduce: a float sum per cluster. Each block reduces its slice in shared memory;
// after cluster.sync() rank 0 adds the blocks' partial sums, read from their shared
// memory, in rank order. The second sync keeps the other blocks alive until it has read.
__global__ void dsmem_reduce(const unsigned *in, float *out, int n)
{
    __shared__ float s[256];
    cg::cluster_group cl = cg::this_cluster();
    float x = 0.0f;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < (unsigned)n; i += gridDim.x * blockDim.x)
        x += fval(in[i]);
    s[threadIdx.x] = x;
    __syncthreads();
    for (unsigned w = blockDim.x / 2; w > 0; w /= 2) {
        if (threadIdx.x < w)
            s[threadIdx.x] += s[threadIdx.x + w];
        __syncthreads();
    }
    cl.sync();
    if (cl.block_rank() == 0 && threadIdx.x == 0) {
        float t = 0.0f;
        for (unsigned r = 0; r < cl.num_blocks(); r++)
            t += *cl.map_shared_rank(&s[0], r);
        out[blockIdx.x / cl.num_blocks()] = t;
    }
    cl.sync();
}

// ring: block r stores into block (r+1)'s shared memory with mapa and
// st.shared::cluster, adds into block (r+2)'s with red/atom.shared::cluster, and reads
// block (r-1)'s with ld.shared::cluster, around cluster barriers written in PTX; the
// cluster special registers and the raw mapa / getctarank results are recorded.
__global__ void __cluster_dims__(4, 1, 1) ring(unsigned *out, unsigned *spec, unsigned *addrs)
{
    __shared__ unsigned slot[128];
    __shared__ unsigned acc[128];
    unsigned rank, n, t = threadIdx.x;
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
    slot[t] = 0;
    acc[t] = t;
    asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
    unsigned mine = (unsigned)__cvta_generic_to_shared(&slot[t]);
    unsigned mineAcc = (unsigned)__cvta_generic_to_shared(&acc[t]);
    unsigned next, far, prev, old;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(next) : "r"(mine), "r"((rank + 1) % n));
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(far) : "r"(mineAcc), "r"((rank + 2) % n));
    asm volatile("st.shared::cluster.u32 [%0], %1;" ::"r"(next), "r"(mix(blockIdx.x * 1000 + t)) : "memory");
    asm volatile("red.shared::cluster.add.u32 [%0], %1;" ::"r"(far), "r"(rank * 7 + 1) : "memory");
    asm volatile("atom.shared::cluster.add.u32 %0, [%1], %2;" : "=r"(old) : "r"(far), "r"(100u) : "memory");
    asm volatile("fence.acq_rel.cluster;" ::: "memory");
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
    unsigned got;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(prev) : "r"(mine), "r"((rank + n - 1) % n));
    asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(got) : "r"(prev) : "memory");
    unsigned g = blockIdx.x * blockDim.x + t;
    out[3 * g] = slot[t];
    out[3 * g + 1] = acc[t];
    out[3 * g + 2] = got;
    if (t == 0) {
        unsigned v[16];
        asm("mov.u32 %0, %%clusterid.x;" : "=r"(v[0]));
        asm("mov.u32 %0, %%clusterid.y;" : "=r"(v[1]));
        asm("mov.u32 %0, %%nclusterid.x;" : "=r"(v[2]));
        asm("mov.u32 %0, %%nclusterid.y;" : "=r"(v[3]));
        asm("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(v[4]));
        asm("mov.u32 %0, %%cluster_ctaid.y;" : "=r"(v[5]));
        asm("mov.u32 %0, %%cluster_nctaid.x;" : "=r"(v[6]));
        asm("mov.u32 %0, %%cluster_nctaid.y;" : "=r"(v[7]));
        asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(v[8]));
        asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(v[9]));
#if defined(EXPLICIT_PRED)
        asm("{\n\t.reg .pred p;\n\tmov.pred p, %%is_explicit_cluster;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(v[10]));
#elif defined(EXPLICIT_U32)
        asm("mov.u32 %0, %%is_explicit_cluster;" : "=r"(v[10]));
#else
        v[10] = 0xEEEE;
#endif
        asm("mov.u32 %0, %%cluster_nctaid.z;" : "=r"(v[11]));
        asm("getctarank.shared::cluster.u32 %0, %1;" : "=r"(v[12]) : "r"(next));
        asm("getctarank.shared::cluster.u32 %0, %1;" : "=r"(v[13]) : "r"(mine));
        v[14] = old;
        v[15] = 0xC0FFEE;
        for (int i = 0; i < 16; i++)
            spec[blockIdx.x * 16 + i] = v[i];
        addrs[blockIdx.x * 4] = mine;
        addrs[blockIdx.x * 4 + 1] = next;
        addrs[blockIdx.x * 4 + 2] = far;
        addrs[blockIdx.x * 4 + 3] = prev;
    }
    asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
}

// pipeline: a cluster barrier pipeline with split arrive/wait. Each step a block writes
// a value into the next block's double buffer, arrives (release), does its own work,
// waits (acquire) and then consumes what the previous block wrote into it.
__global__ void pipeline(const unsigned *in, unsigned *out, int steps)
{
    __shared__ unsigned buf[2][128];
    cg::cluster_group cl = cg::this_cluster();
    unsigned t = threadIdx.x, r = cl.block_rank(), nb = cl.num_blocks();
    unsigned g = blockIdx.x * blockDim.x + t;
    unsigned *nextBuf = cl.map_shared_rank(&buf[0][0], (r + 1) % nb);
    unsigned acc = in[g], own = 0;
    cl.sync();
    for (int s = 0; s < steps; s++) {
        nextBuf[(s & 1) * 128 + t] = mix(acc + s);
        asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
        own = own * 31u + mix(acc ^ (unsigned)s);
        asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
        acc = buf[s & 1][t] + own;
    }
    out[g] = acc;
    asm volatile("barrier.cluster.arrive.relaxed.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
}

// cluster_dims: the cluster group's geometry in a 2-D cluster of a 2-D grid.
__global__ void cluster_dims(unsigned *out)
{
    cg::cluster_group cl = cg::this_cluster();
    if (threadIdx.x == 0) {
        unsigned b = blockIdx.y * gridDim.x + blockIdx.x;
        dim3 d = cl.dim_blocks(), i = cl.block_index();
        out[b * 8 + 0] = d.x;
        out[b * 8 + 1] = d.y;
        out[b * 8 + 2] = d.z;
        out[b * 8 + 3] = i.x;
        out[b * 8 + 4] = i.y;
        out[b * 8 + 5] = cl.block_rank();
        out[b * 8 + 6] = cl.num_blocks();
        out[b * 8 + 7] = (unsigned)cl.thread_rank() + 1000u * (unsigned)cl.num_threads();
    }
    cl.sync();
}

// bulk_peer: cp.async.bulk from global memory into the next block's shared memory,
// completing on that block's mbarrier; each block waits on its own mbarrier and copies
// what arrived to global memory.
__global__ void bulk_peer(const unsigned *in, unsigned *out)
{
    __shared__ __align__(128) unsigned dst[256];
    __shared__ __align__(8) unsigned long long mbar;
    unsigned rank, n, t = threadIdx.x;
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
    unsigned bar = (unsigned)__cvta_generic_to_shared(&mbar);
    if (t == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
    if (t == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 1024;" ::"r"(bar) : "memory");
        unsigned rdst, rbar, d = (unsigned)__cvta_generic_to_shared(dst);
        asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(rdst) : "r"(d), "r"((rank + 1) % n));
        asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(rbar) : "r"(bar), "r"((rank + 1) % n));
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 1024, [%2];"
                     ::"r"(rdst), "l"(in + blockIdx.x * 256), "r"(rbar) : "memory");
    }
    unsigned done = 0;
    while (!done)
        asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n\tselp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(done) : "r"(bar) : "memory");
    for (unsigned i = t; i < 256; i += blockDim.x)
        out[blockIdx.x * 256 + i] = dst[i] * 3u + rank;
    asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
}

// grid_reduce: a cooperative launch with two grid-wide barriers: block partial sums,
// grid.sync(), block 0 adds them in order, grid.sync(), every thread scales its value
// by the total. An atomic counter checks that every block arrived.
__global__ void grid_reduce(const unsigned *in, float *partial, float *out, unsigned *count, int n)
{
    cg::grid_group g = cg::this_grid();
    __shared__ float s[256];
    float x = 0.0f;
    for (unsigned long long i = g.thread_rank(); i < (unsigned long long)n; i += g.size())
        x += fval(in[i]);
    s[threadIdx.x] = x;
    __syncthreads();
    for (unsigned w = blockDim.x / 2; w > 0; w /= 2) {
        if (threadIdx.x < w)
            s[threadIdx.x] += s[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = s[0];
        atomicAdd(count, 1u);
    }
    g.sync();
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        float t = 0.0f;
        for (unsigned b = 0; b < gridDim.x; b++)
            t += partial[b];
        out[0] = t;
        out[1] = (float)*count;
    }
    g.sync();
    unsigned long long r = g.thread_rank();
    out[2 + r] = fval(in[r]) / out[0] + (float)g.block_rank();
}
