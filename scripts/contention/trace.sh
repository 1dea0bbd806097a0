#!/usr/bin/env bash
# Runs on the H200 from the repository root with .dev/fidelity carried:
#   mkdir -p /work/main/.dev/fidelity && cp scripts/contention/trace.{cu,sh} /work/main/.dev/fidelity/
# Writes $OUT/trace.tar.gz: cas_GxB.bin (struct Rec of trace.cu per success), lat.csv, log.txt.
set -u
O=${OUT:?}
W=$(mktemp -d)
cp .dev/fidelity/trace.cu "$W/" && cd "$W" || exit 1
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader; nvcc --version | tail -1; } > log.txt 2>&1
nvcc -O3 -arch=sm_90 -o trace trace.cu >> log.txt 2>&1; echo "build $?" >> log.txt
timeout 60 ./trace cas >> log.txt 2>&1; echo "cas exit $?" >> log.txt
timeout 20 ./trace lat >> log.txt 2>&1; echo "lat exit $?" >> log.txt
cuobjdump -sass trace 2>/dev/null | grep -E "Function|ATOM|CAS|BRA" > sass.txt
tar czf "$O/trace.tar.gz" *.bin lat.csv log.txt sass.txt
cat log.txt
