#!/usr/bin/env bash
# Fifth device call (wave 6: iso5.cu: f16 pairs, #pragma unroll 1 loops, a chained bounds test;
# listing and ncu counts), from the repository root:
#   D=.dev/sass bash .dev/sass/device5.sh   (D holds iso5.cu host.cpp manifest.txt metrics.txt)
# writes $OUT/ptxas5.tgz (sass/iso5.*, ncu/iso5.csv, metrics_used.txt, versions.txt)
set -u
D=${D:-.dev/sass}; W=$(mktemp -d); mkdir -p $W/cubin $W/sass $W/ncu $W/log
{ nvcc --version; ncu --version; nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv; } > $W/versions.txt 2>&1
nvcc -arch=sm_90 -cubin -lineinfo -o $W/cubin/iso5.sm_90.cubin $D/iso5.cu > $W/log/nvcc.txt 2>&1
cuobjdump -sass $W/cubin/iso5.sm_90.cubin > $W/sass/iso5.sm_90.sass
nvdisasm -c -g $W/cubin/iso5.sm_90.cubin > $W/sass/iso5.sm_90.nvdisasm
nvcc -arch=sm_90 -ptx -lineinfo -o $W/sass/iso5.sm_90.ptx $D/iso5.cu >> $W/log/nvcc.txt 2>&1
nvcc -o $W/host $D/host.cpp -lcuda > $W/log/host.txt 2>&1
grep '^iso5\.' $D/manifest.txt | sed "s#cubin/#$W/cubin/#" > $W/manifest.txt
M=$(cat $D/metrics.txt); echo "$M" > $W/metrics_used.txt
timeout 60 ncu --clock-control none --csv --page raw --print-metric-instances details --metrics "$M" $W/host $W/manifest.txt iso5. > $W/ncu/iso5.csv 2> $W/ncu/iso5.err
echo "ncu exit $?" >> $W/log/timeline.txt
date -u >> $W/versions.txt
rm -rf $W/cubin $W/host; tar czf $OUT/ptxas5.tgz -C $W .; ls -la $OUT; cat $W/log/timeline.txt; tail -3 $W/ncu/iso5.err
