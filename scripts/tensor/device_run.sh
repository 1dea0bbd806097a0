#!/bin/bash
# Runs the tensor-core probes and course GEMMs on the device (KernelScope issue 21).
# Staged as .dev/tensor/{probe.cu,cases/,gemm/,src/,gemm_main.cu,device_run.sh} by
# scripts/tensor/stage.sh; writes $OUT/tensor.tgz (out/: outputs, PTX, SASS, logs).
cd "$(dirname "$0")"
mkdir -p out
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nvcc --version | tail -2; } > out/env.txt 2>&1
VARS="f16_f32_k16 bf16_f32_k16 f16_f16_k16 f16_f32_k8 bf16_f32_k8 f16_f16_k8 tf32_k8 tf32_k4 f64_k4 s8_k32 s8_k32_sat u8_k32 u8s8_k32_sat s8_k16 s8_m8n8k16 matrix latency"
( nvcc -arch=sm_90 -DALL -o probe probe.cu > out/probe_build.txt 2>&1 && ./probe . > out/probe_run.txt 2>&1; echo "probe rc=$?" >> out/probe_run.txt ) &
( nvcc -arch=sm_90 -I src -o gemmx gemm_main.cu > out/gemm_build.txt 2>&1 && ./gemmx . > out/gemm_run.txt 2>&1; echo "gemm rc=$?" >> out/gemm_run.txt ) &
for a in sm_80 sm_90; do
  for k in wmma_gemm mma_gemm; do nvcc -ptx -lineinfo -arch=$a src/$k.cu -o out/$k.$a.ptx > out/ptx_$k.$a.txt 2>&1 & done
done
nvcc -ptx -lineinfo -arch=sm_90 -DALL probe.cu -o out/probe.sm_90.ptx > out/ptx_probe.txt 2>&1 &
wait
if [ ! -x probe ]; then
  # one form failed to build: build each form alone so the others still run
  for v in $VARS; do ( nvcc -arch=sm_90 -DV_$v -o probe_$v probe.cu > out/probe_build_$v.txt 2>&1 ) & done
  wait
  for v in $VARS; do [ -x probe_$v ] && ./probe_$v . >> out/probe_run.txt 2>&1; done
fi
[ -x gemmx ] && cuobjdump -sass gemmx | grep -E "Function|HMMA|LDSM|STSM|MOVM|IMMA|DMMA" > out/gemm_sass.txt 2>&1
[ -x probe ] && cuobjdump -sass probe | grep -E "Function|HMMA|LDSM|STSM|MOVM|IMMA|DMMA" > out/probe_sass.txt 2>&1
if [ -x gemmx ] && command -v ncu > /dev/null; then
  timeout 60 ncu --clock-control none --metrics smsp__inst_executed.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum --csv ./gemmx . > out/ncu.csv 2> out/ncu_err.txt
  echo "ncu rc=$?" >> out/ncu_err.txt
  timeout 60 ncu --clock-control none --metrics sm__inst_executed_pipe_tensor_op_hmma.sum,smsp__inst_executed_op_ldsm.sum,sm__pipe_tensor_op_hmma_cycles_active.sum --csv ./gemmx . > out/ncu_tensor.csv 2> out/ncu_tensor_err.txt
  echo "ncu rc=$?" >> out/ncu_tensor_err.txt
fi
tar czf "$OUT/tensor.tgz" out
ls -la out
cat out/probe_run.txt out/gemm_run.txt | tail -40
