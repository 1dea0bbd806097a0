// A grid-wide barrier (this project's own kernel): cg::this_grid().sync() between a
// write and a read of another block's word. Launched cooperatively
// (cudaLaunchCooperativeKernel) on the H200; KernelScope runs a cooperative launch
// (<<<grid, block, shmem, cooperative>>>) as one co-scheduled group of blocks, so the
// barrier works for every grid that fits on the GPU at once.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// cg_grid: a grid-wide barrier between a write and a read of another block's word.
// Launched cooperatively (cudaLaunchCooperativeKernel) on the H200.
__global__ void cg_grid(int *buf, int *out)
{
    cg::grid_group g = cg::this_grid();
    unsigned long long r = g.thread_rank();
    buf[r] = (int)(r * 3 + 1);
    g.sync();
    out[r] = buf[g.size() - 1 - r] + 1000 * (int)g.num_blocks() + 100000 * (int)g.block_rank();
}
