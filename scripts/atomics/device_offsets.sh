#!/usr/bin/env bash
# Runs on the H200 machine (carry build/dev-atomics): builds scripts/atomics/offsets.cu and writes
# $OUT/offsets.csv (event-timed) and $OUT/offsets_ncu.csv (the three one-shot launches), log_offsets.txt.
set -u
D=build/dev-atomics
O=${OUT:?}
L="$O/log_offsets.txt"
cd "$D" || exit 1
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader; } > "$L" 2>&1
nvcc -O3 -arch=sm_90 -o offsets offsets.cu >> "$L" 2>&1; echo "build $?" >> "$L"
timeout 60 ./offsets > "$O/offsets.csv" 2>> "$L"; echo "time exit $?" >> "$L"
timeout 60 ncu --clock-control none -k regex:"h_red" --csv --page raw --metrics sm__cycles_elapsed.max,lts__t_sectors_srcunit_tex_op_red_lookup_hit.sum --log-file "$O/offsets_ncu.csv" ./offsets ncu >> "$L" 2>&1
echo "ncu exit $?" >> "$L"; cat "$L"; cat "$O/offsets.csv"
