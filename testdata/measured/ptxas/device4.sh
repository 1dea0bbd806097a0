#!/usr/bin/env bash
# Fourth device call (wave 5: iso4.cu, held-out validation kernels: listing and ncu counts), from the
# repository root:   D=.dev/sass bash .dev/sass/device4.sh   (D holds iso4.cu host.cpp manifest.txt metrics.txt)
# writes $OUT/ptxas4.tgz (sass/iso4.*, ncu/iso4.csv, metrics_used.txt, versions.txt)
set -u
D=${D:-.dev/sass}; W=$(mktemp -d); mkdir -p $W/cubin $W/sass $W/ncu $W/log
{ nvcc --version; ncu --version; nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv; } > $W/versions.txt 2>&1
nvcc -arch=sm_90 -cubin -lineinfo -o $W/cubin/iso4.sm_90.cubin $D/iso4.cu > $W/log/nvcc.txt 2>&1
cuobjdump -sass $W/cubin/iso4.sm_90.cubin > $W/sass/iso4.sm_90.sass
nvdisasm -c -g $W/cubin/iso4.sm_90.cubin > $W/sass/iso4.sm_90.nvdisasm
nvcc -arch=sm_90 -ptx -lineinfo -o $W/sass/iso4.sm_90.ptx $D/iso4.cu >> $W/log/nvcc.txt 2>&1
nvcc -o $W/host $D/host.cpp -lcuda > $W/log/host.txt 2>&1
sed "s#cubin/#$W/cubin/#" $D/manifest.txt > $W/manifest.txt
M=$(cat $D/metrics.txt); echo "$M" > $W/metrics_used.txt
timeout 100 ncu --clock-control none --csv --page raw --print-metric-instances details --metrics "$M" $W/host $W/manifest.txt iso4. > $W/ncu/iso4.csv 2> $W/ncu/iso4.err
echo "ncu exit $?" >> $W/log/timeline.txt
date -u >> $W/versions.txt
rm -rf $W/cubin $W/host; tar czf $OUT/ptxas4.tgz -C $W .; ls -la $OUT; cat $W/log/timeline.txt; tail -3 $W/ncu/iso4.err
