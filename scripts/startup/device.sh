#!/usr/bin/env bash
# Runs on the H200 from the repository root with .dev/fidelity carried:
#   mkdir -p /work/main/.dev/fidelity && cp scripts/startup/{startup.cu,device.sh} /work/main/.dev/fidelity/
# Writes $OUT/startup.tar.gz: startup_ncu.csv (ncu raw CSV), labels.txt, sass.txt, log.txt.
set -u
O=${OUT:?}
W=$(mktemp -d)
cp .dev/fidelity/startup.cu "$W/" && cd "$W" || exit 1
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader; nvcc --version | tail -1; } > log.txt 2>&1
nvcc -O3 -arch=sm_90 -o startup startup.cu >> log.txt 2>&1; echo "build $?" >> log.txt
M=sm__cycles_elapsed.max,gpu__time_duration.sum,smsp__inst_executed.sum,l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,dram__bytes_read.sum,dram__bytes_write.sum
for rep in 1 2; do
  timeout 45 ncu --clock-control none --cache-control all --csv --page raw --metrics $M --log-file startup_ncu_$rep.csv ./startup > labels.txt 2>> log.txt
  echo "ncu $rep exit $?" >> log.txt
done
cuobjdump -sass startup 2>/dev/null | grep -vE "^\s*$|/\* [0-9a-f]{4} \*/\s*$" | head -400 > sass.txt
tar czf "$O/startup.tar.gz" startup_ncu_*.csv labels.txt sass.txt log.txt
cat log.txt
