#!/bin/bash
# run.sh: the device command for issue 18 (run from the repository root on the
# H200 machine, with scripts/mufu copied to .dev/mufu). Writes $OUT/*.tar.
set -x
D=$(cd "$(dirname "$0")" && pwd)
W=/tmp/mufuw; mkdir -p $W/data $W/sum
cd $W
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > sum/gpu.txt 2>&1
nvcc --version > sum/nvcc.txt 2>&1
( nvcc -O3 -arch=sm_90 -o mufu $D/mufu.cu 2> sum/mufu_build.txt ) &
nvcc -arch=sm_90 -cubin -o probe.cubin $D/probe.cu 2> sum/probe_build.txt
cuobjdump --dump-sass probe.cubin > sum/probe.sass 2>&1
nvcc -arch=sm_90 -ptx -o sum/probe.ptx $D/probe.cu
for fm in 0 1; do
  fl=""; [ $fm = 1 ] && fl="-use_fast_math"
  nvcc -O3 -arch=sm_90 $fl -o fm$fm $D/fastmath.cu 2>> sum/fm_build.txt
  nvcc -O3 -arch=sm_90 $fl -ptx -o sum/fastmath$fm.ptx $D/fastmath.cu
  cuobjdump --dump-sass fm$fm > sum/fastmath$fm.sass 2>&1
  ./fm$fm sum/fastmath_out$fm.bin
done
wait
timeout 170 ./mufu data > sum/mufu_log.txt 2>&1; echo "rc $?" >> sum/mufu_log.txt
mv data/*.stats data/*.txt data/tab16.bin sum/ 2>/dev/null
ls -la data | head -100 > sum/data_list.txt
python3 $D/pack.py data $OUT 7 >> sum/pack_log.txt 2>&1
tar cJf $OUT/summary.tar.xz sum
ls -la $OUT
