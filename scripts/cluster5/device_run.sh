#!/bin/bash
# KernelScope issue 21 point 5 (scripts/cluster5), one device call: the cluster-arrival probe
# (probe.cu) and Nsight Compute source-level stall samples of tensor4's wmma and wgmma GEMMs.
# Writes $OUT/cluster5.tgz (out/) after every step.
cd "$(dirname "$0")"
mkdir -p out
save() { tar czf "$OUT/cluster5.tgz" out; }
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nvcc --version | tail -2; } > out/env.txt 2>&1
nvcc -arch=sm_90 -o probe probe.cu > out/build_probe.txt 2>&1; echo "rc=$?" >> out/build_probe.txt
cuobjdump -sass probe | grep -E "Function|MEMBAR|ERRBAR|UCGABAR|ST|RED|ATOM" > out/probe_sass.txt 2>&1
timeout 30 ./probe > out/probe.txt 2>&1; echo "probe rc=$?" >> out/probe.txt; save
if [ -d tensor ]; then
  (cd tensor && nvcc -gencode arch=compute_90a,code=sm_90a -lineinfo -I src -o harness harness.cu -lcuda > ../out/build_tensor.txt 2>&1; echo "rc=$?" >> ../out/build_tensor.txt)
  for k in wmma_gemm wgmma_gemm; do
    timeout 60 ncu --clock-control none -k $k -c 1 --section SourceCounters --section WarpStateStats --section MemoryWorkloadAnalysis_Tables --page source --print-source sass --csv ./tensor/harness tensor gemm > out/ncu_${k}_source.csv 2> out/ncu_${k}_err.txt; save
  done
  timeout 60 ncu --clock-control none -k wmma_gemm -c 1 --section MemoryWorkloadAnalysis_Tables --section WarpStateStats --csv ./tensor/harness tensor gemm > out/ncu_wmma_gemm_mem.csv 2> out/ncu_wmma_gemm_mem_err.txt; save
fi
save
cat out/build_probe.txt out/probe.txt; tail -2 out/build_tensor.txt; wc -l out/*.csv
