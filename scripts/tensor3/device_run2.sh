#!/bin/bash
# Second call (KernelScope issue 21): each case of the maps whose launch failed in the first
# call (device_run.sh) in its own process, to find which cases the H200 refuses, and the
# stall sampling of the TMA pipeline. Writes $OUT/tensor3b.tgz (out2/).
cd "$(dirname "$0")"
mkdir -p out out2
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > out2/env.txt 2>&1
nvcc -gencode arch=compute_90a,code=sm_90a -lineinfo -o tma_probe tma_probe.cu -lcuda > out2/build_tma.txt 2>&1; echo "rc=$?" >> out2/build_tma.txt
for m in L_u16_sw128 L_u16_sw64 L_u16_sw32 L_u16_none L_u16_sw128_narrow L_f32_3d_estr L_u8_5d L_f32_sw128_nan L_f16_sw128_nan L_u32_estr S_u16_sw128 S_f32_none S_f32_3d R_u32 R_i32 R_f32_add; do
  for k in 0 1 2 3 4 5 6 7; do
    [ -x tma_probe ] && { timeout 10 ./tma_probe . "$m#$k" >> out2/run_cases.txt 2>&1; echo "$m#$k rc=$?" >> out2/run_cases.txt; }
  done
done
mv out/*.c[0-9].* out2/ 2>/dev/null
if command -v ncu > /dev/null && [ -x tma_probe ]; then
  timeout 40 ncu --clock-control none -k tma_pipeline --launch-count 1 --metrics regex:smsp__pcsamp_warps_issue_stalled_.* --csv ./tma_probe . pipe > out2/ncu_pipe_stalls.csv 2> out2/ncu_pipe_stalls_err.txt
  timeout 40 ncu --clock-control none -k tma_pipeline --launch-count 1 --section SourceCounters --page source --print-source sass --csv ./tma_probe . pipe > out2/ncu_pipe_source.csv 2> out2/ncu_pipe_source_err.txt
fi
tar czf "$OUT/tensor3b.tgz" out2
grep -v "rc=0" out2/run_cases.txt | head -80; tail -3 out2/ncu_pipe_stalls_err.txt out2/ncu_pipe_source_err.txt; grep -c . out2/ncu_pipe_stalls.csv out2/ncu_pipe_source.csv
