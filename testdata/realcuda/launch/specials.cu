// Reads the PTX special registers whose value a launch defines (or that are
// fixed for a plain, non-cluster, non-graph launch) and stores them: per thread
// the lane masks, lane and warp size; per block the launch-wide registers.
// Registers whose value is not defined by the launch (%clock, %smid, %warpid,
// %gridid, %globaltimer, %pm*, %envreg*) are left out.
#define SREG(name, var) asm volatile("mov.u32 %0, %%" name ";" : "=r"(var))

extern "C" __global__ void specials(unsigned *lane_regs, unsigned *block_regs)
{
    unsigned t = threadIdx.x;
    unsigned v[8];
    SREG("laneid", v[0]);
    SREG("lanemask_eq", v[1]);
    SREG("lanemask_le", v[2]);
    SREG("lanemask_lt", v[3]);
    SREG("lanemask_ge", v[4]);
    SREG("lanemask_gt", v[5]);
    v[6] = warpSize;
    v[7] = t / warpSize;
    for (int k = 0; k < 8; k++)
        lane_regs[t * 8 + k] = v[k];
    if (t == 0) {
        unsigned b[12];
        SREG("dynamic_smem_size", b[0]);
        SREG("total_smem_size", b[1]);
        asm volatile("{ .reg .pred p; mov.pred p, %%is_explicit_cluster; selp.u32 %0, 1, 0, p; }" : "=r"(b[2]));
        SREG("cluster_ctarank", b[3]);
        SREG("cluster_nctarank", b[4]);
        SREG("clusterid.x", b[5]);
        SREG("nclusterid.x", b[6]);
        SREG("cluster_ctaid.x", b[7]);
        SREG("cluster_nctaid.x", b[8]);
        SREG("nctaid.x", b[9]);
        SREG("ntid.x", b[10]);
        SREG("ctaid.x", b[11]);
        for (int k = 0; k < 12; k++)
            block_regs[blockIdx.x * 12 + k] = b[k];
    }
}

#ifndef NO_HW
// Registers whose value the simulator does not define; recorded on the H200
// for reference only (the simulator reports an error naming the line).
extern "C" __global__ void specials_hw(unsigned *out)
{
    unsigned b[8];
    SREG("nwarpid", b[0]);
    SREG("nsmid", b[1]);
    SREG("aggr_smem_size", b[2]);
    SREG("reserved_smem_offset_begin", b[3]);
    SREG("reserved_smem_offset_end", b[4]);
    SREG("reserved_smem_offset_cap", b[5]);
    SREG("envreg0", b[6]);
    SREG("envreg1", b[7]);
    if (threadIdx.x == 0)
        for (int k = 0; k < 8; k++)
            out[k] = b[k];
}
#endif
