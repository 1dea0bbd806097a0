#!/usr/bin/env bash
# Runs on the H200 machine from the repository root with build/dev-l2 carried over (a copy of
# scripts/l2). Writes into $OUT: l2probe.tar.gz holding run1/ and run2/ (two plain runs, two
# processes: atom.csv side.csv chase.csv stdout.txt), sass.txt and log.txt.
# (Nsight Compute was tried on the chase kernels with --cache-control none: its kernel replay
# leaves the L2 warm between passes, so per-launch L2 counters of these probes are not usable.)
set -u
D=build/dev-l2
O=${OUT:?}
L="$O/log.txt"
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader; nvcc --version | tail -2; } > "$L" 2>&1
nvcc -O3 -arch=sm_90 -o "$D/l2probe" "$D/l2probe.cu" >> "$L" 2>&1 || { echo "build failed" >> "$L"; exit 1; }
cuobjdump -sass "$D/l2probe" | grep -E "Function|LDG|STG|ATOMG|RED|CS2R|S2UR" > "$O/sass.txt" 2>&1
T=$(mktemp -d)
for r in run1 run2; do
  mkdir -p "$T/$r"
  timeout 60 "$D/l2probe" "$T/$r" > "$T/$r/stdout.txt" 2>> "$L"; echo "$r exit $?" >> "$L"
done
tar czf "$O/l2probe.tar.gz" -C "$T" run1 run2
