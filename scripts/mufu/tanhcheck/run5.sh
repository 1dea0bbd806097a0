#!/bin/bash
# run5.sh: the device command for the MUFU.TANH check (tanhcheck.cu, model.h
# and tab.h, made here by tab.sh, copied to .dev/tanh). Writes $OUT/tanhcheck.txt
# and $OUT/tanhcheck_sass.txt.
D=$(cd "$(dirname "$0")" && pwd)
L=$OUT/tanhcheck.txt
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -2; } | sed 's/^/# /' > $L 2>&1
nvcc -O3 -arch=sm_90 -o /tmp/tanhcheck $D/tanhcheck.cu >> $L 2>&1 || { echo "# build failed" >> $L; exit 1; }
cuobjdump --dump-sass /tmp/tanhcheck | grep -E "Function|MUFU" > $OUT/tanhcheck_sass.txt 2>&1
/tmp/tanhcheck >> $L 2>&1; echo "# rc $?" >> $L
