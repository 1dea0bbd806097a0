#!/bin/bash
# Runs the wgmma probes on the device (KernelScope issue 21, warpgroup MMA). Staged as
# .dev/tensor2 by scripts/tensor2/stage.sh; writes $OUT/tensor2.tgz (out/: outputs, PTX, SASS, logs).
cd "$(dirname "$0")"
mkdir -p out
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; nvcc --version | tail -2; } > out/env.txt 2>&1
nvcc -ptx -lineinfo -gencode arch=compute_90a,code=sm_90a wgmma_probe.cu -o out/wgmma_probe.nvcc.sm_90a.ptx > out/ptx_build.txt 2>&1 &
nvcc -gencode arch=compute_90a,code=sm_90a -o wgmma_probe wgmma_probe.cu > out/build.txt 2>&1
echo "build rc=$?" >> out/build.txt
[ -x wgmma_probe ] && ./wgmma_probe . > out/run.txt 2>&1; echo "run rc=$?" >> out/run.txt
wait
[ -x wgmma_probe ] && cuobjdump -sass wgmma_probe | grep -E "Function|HGMMA|WARPGROUP|WARPSYNC" > out/sass.txt 2>&1
[ -x wgmma_probe ] && command -v compute-sanitizer > /dev/null && timeout 60 compute-sanitizer --tool memcheck ./wgmma_probe . > out/memcheck.txt 2>&1 || true
tar czf "$OUT/tensor2.tgz" out
ls -la out; cat out/build.txt out/run.txt | tail -30; tail -5 out/memcheck.txt 2>/dev/null; head -30 out/sass.txt
