#!/bin/bash
# Runs the TMA, fp8-wgmma and ldmatrix-bank probes on the device (KernelScope issue 21).
# Staged as .dev/tma by scripts/tensor3/stage.sh; writes $OUT/tensor3.tgz (out/).
cd "$(dirname "$0")"
mkdir -p out
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nvcc --version | tail -2; } > out/env.txt 2>&1
G="-gencode arch=compute_90a,code=sm_90a"
(nvcc $G -lineinfo -o tma_probe tma_probe.cu -lcuda > out/build_tma.txt 2>&1; echo "rc=$?" >> out/build_tma.txt) &
(nvcc $G -ptx -lineinfo tma_probe.cu -o out/tma_probe.nvcc.sm_90a.ptx > out/build_tma_ptx.txt 2>&1; echo "rc=$?" >> out/build_tma_ptx.txt) &
(nvcc $G -o fp8_probe fp8_probe.cu > out/build_fp8.txt 2>&1; echo "rc=$?" >> out/build_fp8.txt) &
(nvcc $G -ptx -lineinfo fp8_probe.cu -o out/fp8_probe.nvcc.sm_90a.ptx > out/build_fp8_ptx.txt 2>&1; echo "rc=$?" >> out/build_fp8_ptx.txt) &
(nvcc -arch=sm_90 -o ldsm_probe ldsm_probe.cu > out/build_ldsm.txt 2>&1; echo "rc=$?" >> out/build_ldsm.txt) &
(nvcc -arch=sm_90 -ptx ldsm_probe.cu -o out/ldsm_probe.nvcc.sm_90.ptx > /dev/null 2>&1) &
wait
for g in $(grep -o '"name": "[^"]*"' tma_cases.json | cut -d'"' -f4) pipe; do
  [ -x tma_probe ] && { timeout 20 ./tma_probe . $g >> out/run_tma.txt 2>&1; echo "$g rc=$?" >> out/run_tma.txt; }
done
[ -x fp8_probe ] && { timeout 30 ./fp8_probe . > out/run_fp8.txt 2>&1; echo "rc=$?" >> out/run_fp8.txt; }
if command -v ncu > /dev/null; then
  [ -x ldsm_probe ] && timeout 90 ncu --clock-control none --metrics smsp__inst_executed_op_ldsm.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum --csv ./ldsm_probe > out/ncu_ldsm.csv 2> out/ncu_ldsm_err.txt
  [ -x tma_probe ] && timeout 60 ncu --clock-control none -k tma_pipeline --launch-count 1 --section WarpStateStats --section SchedulerStats --metrics smsp__inst_executed.sum,smsp__cycles_active.avg,sm__cycles_elapsed.max --csv ./tma_probe . pipe > out/ncu_pipe.csv 2> out/ncu_pipe_err.txt
fi
[ -x tma_probe ] && cuobjdump -sass tma_probe | grep -E "Function|UTMA|UBLKCP|SYNCS|UTMAPF|UTMACCTL|UTMAREDG|UTMASTG" > out/tma_sass.txt 2>&1
[ -x ldsm_probe ] && cuobjdump -sass ldsm_probe | grep -E "Function|LDSM" > out/ldsm_sass.txt 2>&1
tar czf "$OUT/tensor3.tgz" out
ls -la out | head -80; tail -3 out/build_*.txt; cat out/run_*.txt | head -60; tail -5 out/ncu_ldsm_err.txt out/ncu_pipe_err.txt; head -c 1500 out/ncu_ldsm.csv
