#!/usr/bin/env bash
# Runs on the H200 machine from the repository root with build/dev-atomics carried
# (scripts/atomics/prepare.sh copies atomics.cu and this file there).
# Writes into $OUT: atomics.csv (event-timed), atomics_ncu.csv (ncu), labels.txt, sass.txt, log.txt.
set -u
D=build/dev-atomics
O=${OUT:?}
L="$O/log.txt"
cd "$D" || exit 1
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader; nvcc --version | tail -2; } > "$L" 2>&1
T0=$(date +%s)
nvcc -O3 -arch=sm_90 -o atomics atomics.cu >> "$L" 2>&1; echo "build $? in $(( $(date +%s) - T0 )) s" >> "$L"
cuobjdump -sass atomics 2>/dev/null | grep -E "Function|ATOM|RED|CAS|BSSY|BRA|YIELD|MEMBAR|EXIT" | head -400 > "$O/sass.txt"
timeout 60 ./atomics time > "$O/atomics.csv" 2>> "$L"; echo "time exit $? at $(( $(date +%s) - T0 )) s" >> "$L"
M=sm__cycles_elapsed.max,gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_atom_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_atom_lookup_miss.sum,lts__t_sectors_srcunit_tex_op_red_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_red_lookup_miss.sum,smsp__inst_executed.sum
timeout 150 ncu --clock-control none -k regex:"r_|h_" --csv --page raw --metrics $M --log-file "$O/atomics_ncu.csv" ./atomics ncu > "$O/labels.txt" 2>> "$L"
echo "ncu exit $? at $(( $(date +%s) - T0 )) s" >> "$L"
tail -5 "$L"
