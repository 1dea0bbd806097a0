#!/bin/bash
# KernelScope issue 21 (scripts/tensor4), one device call: builds harness.cu (TMA stream copy,
# TMA latency, GEMMs at 512^3, cluster probes), runs it, then Nsight Compute: cycles and warp
# stall reasons of tma_stream, tensor-pipe counters of the GEMMs, cycles of the cluster probes.
# Writes $OUT/tensor4.tgz (out/) after every step.
cd "$(dirname "$0")"
mkdir -p out
save() { tar czf "$OUT/tensor4.tgz" out; }
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nvcc --version | tail -2; } > out/env.txt 2>&1
nvcc -gencode arch=compute_90a,code=sm_90a -ptx -lineinfo -I src -o out/harness.sm_90a.ptx harness.cu > out/ptx.txt 2>&1 &
nvcc -gencode arch=compute_90a,code=sm_90a -lineinfo -I src -o harness harness.cu -lcuda > out/build.txt 2>&1; echo "build rc=$?" >> out/build.txt
if [ -x harness ]; then
  timeout 30 ./harness . all > out/run.txt 2>&1; echo "harness rc=$?" >> out/run.txt; save
  M1='sm__cycles_elapsed.max,smsp__cycles_active.avg,smsp__inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum'
  timeout 45 ncu --clock-control none -k tma_stream --metrics "$M1,regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,regex:smsp__pcsamp_warps_issue_stalled_.*" --csv ./harness . tma > out/ncu_stream.csv 2> out/ncu_stream_err.txt; save
  timeout 30 ncu --clock-control none -k regex:gemm --metrics "sm__cycles_elapsed.max,smsp__inst_executed.sum,regex:sm__pipe_tensor_op.*cycles_active\.(sum|max|avg)$,regex:sm__inst_executed_pipe_tensor.*\.sum$,regex:smsp__average_warps_issue_stalled_(math_pipe_throttle|long_scoreboard|barrier|short_scoreboard|wait|mio_throttle|not_selected|selected)_per_issue_active\.ratio" --csv ./harness . gemm > out/ncu_gemm.csv 2> out/ncu_gemm_err.txt; save
  timeout 20 ncu --clock-control none -k regex:cl_ --metrics sm__cycles_elapsed.max,smsp__inst_executed.sum --csv ./harness . cluster > out/ncu_cluster.csv 2> out/ncu_cluster_err.txt; save
  cuobjdump -sass harness | grep -E "Function|SYNCS|UTMA|UBLKCP|HMMA|HGMMA|UCGABAR|BAR|MEMBAR" > out/sass.txt 2>&1
  timeout 20 ncu --clock-control none -k tma_stream --launch-skip 1 -c 1 --section SourceCounters --page source --print-source sass --csv ./harness . tma > out/ncu_stream_source.csv 2> out/ncu_stream_source_err.txt
fi
wait
save
tail -3 out/build.txt; cat out/run.txt; for f in out/*err.txt; do echo "== $f"; tail -2 $f; done; wc -l out/*.csv
