#!/usr/bin/env bash
# On the H200 (device tool), from the repository root: bash testdata/measured/l1lines/run.sh
set -u
D=testdata/measured/l1lines
nvcc -arch=sm_90 -O3 -o /tmp/l1lines $D/l1lines.cu && cuobjdump -sass /tmp/l1lines > $OUT/sass.txt
/tmp/l1lines > $OUT/log.txt 2>&1
M=sm__cycles_elapsed.max,gpu__time_duration.sum,smsp__inst_executed.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_sector_hit_rate.pct,l1tex__data_pipe_lsu_wavefronts.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
for r in 1 2; do
  ncu --clock-control none --csv --page raw --metrics $M /tmp/l1lines > $OUT/ncu_$r.csv 2> $OUT/ncu_$r.err
done
# further counters, separately (a name this ncu lacks fails only this run)
ncu --clock-control none --csv --page raw --metrics l1tex__m_xbar2l1tex_read_sectors.sum,l1tex__lsuin_requests.sum,l1tex__f_wavefronts.sum,l1tex__t_set_accesses_pipe_lsu_mem_global_op_ld.sum,l1tex__t_set_conflicts_pipe_lsu_mem_global_op_ld.sum,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio /tmp/l1lines > $OUT/ncu_extra.csv 2> $OUT/ncu_extra.err
nvcc --version | tail -2 > $OUT/nvcc.txt
