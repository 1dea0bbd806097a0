#!/usr/bin/env bash
# On the H200 (device tool), from the repository root: bash testdata/measured/dramlat/run.sh
set -u
D=testdata/measured/dramlat
nvcc -arch=sm_90 -O3 -o /tmp/dramlat $D/dramlat.cu > $OUT/build.txt 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $OUT/gpu.txt 2>&1
for r in 1 2; do /tmp/dramlat > $OUT/dramlat_$r.txt 2>&1; done
cuobjdump -sass /tmp/dramlat | grep -A40 'Function : _Z5chase' | head -60 > $OUT/sass.txt
nvcc --version | tail -2 > $OUT/nvcc.txt
