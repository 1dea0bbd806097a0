// Cooperative groups (this project's own kernel): thread_block, tiled_partition,
// thread_block_tile shfl/ballot/any/all/match, cg::reduce and the scans,
// coalesced_threads, binary/labeled partitions, memcpy_async/wait.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

// The inputs are made from the thread's global index by integer arithmetic only.
__device__ __forceinline__ unsigned int cg_hash(unsigned int x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

#define CG_INTS 40

// cg_tiles<<<2, 128>>>: CG_INTS ints and 4 floats per thread.
__global__ void cg_tiles(int *out, float *fout)
{
    cg::thread_block b = cg::this_thread_block();
    unsigned int r = b.thread_rank();
    unsigned int gid = blockIdx.x * b.size() + r;
    unsigned int h = cg_hash(gid);
    int v = (int)(h % 100u);
    float f = (float)(int)(h >> 8) * 0x1p-20f; // up to 2^4, 20 fraction bits
    cg::thread_block_tile<32> w = cg::tiled_partition<32>(b);
    cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(b);
    cg::thread_block_tile<4> t4 = cg::tiled_partition<4>(w);
    int *o = out + gid * CG_INTS;
    o[0] = (int)b.thread_rank();
    o[1] = (int)b.size();
    o[2] = (int)w.meta_group_rank();
    o[3] = (int)t8.meta_group_rank();
    o[4] = (int)t8.meta_group_size();
    o[5] = (int)t4.meta_group_rank() + 100 * (int)t4.meta_group_size();
    o[6] = w.shfl(v, 3);
    o[7] = t8.shfl_up(v, 1);
    o[8] = t8.shfl_down(v, 2);
    o[9] = t4.shfl_xor(v, 1);
    o[10] = (int)w.ballot(v & 1);
    o[11] = (int)t8.ballot(v > 50);
    o[12] = t8.any(v > 90);
    o[13] = t8.all(v > 5);
    o[14] = (int)t8.match_any(v % 4);
    int pred = 0;
    o[15] = (int)t4.match_all(v / 50, pred);
    o[16] = pred;
    o[17] = cg::reduce(w, v, cg::plus<int>());
    o[18] = cg::reduce(t8, v, cg::greater<int>());
    o[19] = cg::reduce(t4, v, cg::less<int>());
    o[20] = (int)cg::reduce(w, (unsigned int)h, cg::bit_and<unsigned int>());
    o[21] = (int)cg::reduce(t8, (unsigned int)h, cg::bit_or<unsigned int>());
    o[22] = (int)cg::reduce(t8, (unsigned int)h, cg::bit_xor<unsigned int>());
    o[23] = cg::inclusive_scan(w, v);
    o[24] = cg::exclusive_scan(t8, v);
    o[25] = cg::inclusive_scan(t4, v, cg::greater<int>());
    o[26] = (int)w.thread_rank() + 100 * (int)t8.thread_rank() + 10000 * (int)t4.thread_rank();
    o[27] = (int)(w.size() + 100 * t8.num_threads() + 10000 * t4.size());
    dim3 gi = b.group_index(), ti = b.thread_index(), dt = b.dim_threads();
    o[28] = (int)(gi.x + 10 * ti.x + 10000 * dt.x);
    long long lv = (long long)v << 33 | (unsigned int)h;
    long long ls = w.shfl_down(lv, 5);
    o[29] = (int)(ls >> 33);
    o[30] = (int)(unsigned int)ls;
    fout[gid * 4 + 0] = cg::reduce(w, f, cg::plus<float>());
    fout[gid * 4 + 1] = cg::reduce(t8, f, cg::plus<float>());
    fout[gid * 4 + 2] = cg::inclusive_scan(w, f);
    fout[gid * 4 + 3] = cg::exclusive_scan(t4, f);
    o[31] = 0;
    o[32] = 0;
    o[33] = 0;
    o[34] = 0;
    o[35] = 0;
    if (v & 1) {
        cg::coalesced_group c = cg::coalesced_threads();
        o[31] = (int)(c.thread_rank() + 100 * c.size());
        o[32] = c.shfl(v, 0);
        o[33] = (int)c.ballot(v > 50);
        o[34] = cg::reduce(c, v, cg::plus<int>());
        o[35] = cg::inclusive_scan(c, v);
    }
    cg::coalesced_group odd = cg::binary_partition(w, v & 1);
    o[36] = (int)(odd.thread_rank() + 100 * odd.size());
    cg::coalesced_group lab = cg::labeled_partition(w, v % 3);
    o[37] = (int)(lab.thread_rank() + 100 * lab.size());
    o[38] = cg::reduce(lab, v, cg::plus<int>());
    b.sync();
    o[39] = w.any(v == 99) + 2 * w.all(v < 100);
}

// cg_memcpy<<<2, 64>>>: memcpy_async of a block's tile into shared memory, wait, then
// each thread sums its neighbours (in has 2*256 ints).
__global__ void cg_memcpy(const int *in, int *out)
{
    __shared__ int tile[256];
    cg::thread_block b = cg::this_thread_block();
    cg::memcpy_async(b, tile, in + blockIdx.x * 256, sizeof(int) * 256);
    cg::wait(b);
    int s = 0;
    for (int k = 0; k < 4; k++) s += tile[(threadIdx.x * 4 + k * 5) % 256];
    out[blockIdx.x * 64 + threadIdx.x] = s;
}
