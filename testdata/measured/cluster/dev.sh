#!/bin/sh
# The device command (run from the repository root on the H200):
#   sh .dev/cluster/dev.sh   (OUT set by the device runner)
cd "$(dirname "$0")" || exit 1
o=/tmp/h200
mkdir -p $o/out $o/bin /tmp/ncu_out
( nvcc -ptx -lineinfo -arch=sm_90 -DEXPLICIT_PRED cluster.cu -o $o/cluster.sm_90.ptx > $o/log_ptx.txt 2>&1 || nvcc -ptx -lineinfo -arch=sm_90 -DEXPLICIT_U32 cluster.cu -o $o/cluster.sm_90.ptx >> $o/log_ptx.txt 2>&1 || nvcc -ptx -lineinfo -arch=sm_90 cluster.cu -o $o/cluster.sm_90.ptx >> $o/log_ptx.txt 2>&1 ) &
for d in EXPLICIT_PRED EXPLICIT_U32 NONE; do
    echo "build -D$d" >> $o/log_build.txt
    if nvcc -O2 -arch=sm_90 -lineinfo -D$d -o $o/bin/harness harness.cu >> $o/log_build.txt 2>&1; then
        echo "used -D$d" >> $o/log_build.txt
        break
    fi
done
wait
timeout 30 $o/bin/harness $o/out > $o/log_run.txt 2>&1 || echo "harness failed rc=$?" >> $o/log_run.txt
{ nvcc --version; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } > $o/versions.txt
tar czf "$OUT/h200.tgz" -C /tmp h200
cuobjdump -sass $o/bin/harness > $o/cluster.sass 2>&1
timeout 60 ncu --clock-control none --metrics sm__cycles_elapsed.max --csv $o/bin/harness /tmp/ncu_out > $o/ncu.csv 2> $o/log_ncu.txt || echo "ncu failed rc=$?" >> $o/log_ncu.txt
rm -rf $o/bin
tar czf "$OUT/h200.tgz" -C /tmp h200
