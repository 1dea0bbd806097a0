#!/usr/bin/env bash
# Runs on the H200 machine from the repository root with .dev/exec carried (scripts/contention/prepare.sh).
# Writes into $OUT: contention.csv (event-timed), contention_ncu.csv (ncu), labels.txt, sass.txt, log.txt.
set -u
D=.dev/exec
O=${OUT:?}
L="$O/log.txt"
cd "$D" || exit 1
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader; nvcc --version | tail -2; } > "$L" 2>&1
T0=$(date +%s)
nvcc -O3 -arch=sm_90 -o contention contention.cu >> "$L" 2>&1; echo "build $? in $(( $(date +%s) - T0 )) s" >> "$L"
timeout 20 ./contention time > "$O/contention.csv" 2>> "$L"; echo "time exit $? at $(( $(date +%s) - T0 )) s" >> "$L"
M=sm__cycles_elapsed.max,gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_atom_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_atom_lookup_miss.sum,smsp__inst_executed.sum
timeout 45 ncu --clock-control none -k regex:"c_casloop|c_scas|c_add" --csv --page raw --metrics $M --log-file "$O/contention_ncu.csv" ./contention ncu > "$O/labels.txt" 2>> "$L"
echo "ncu exit $? at $(( $(date +%s) - T0 )) s" >> "$L"
cuobjdump -sass contention 2>/dev/null | grep -E "Function|ATOM|RED|CAS|BSSY|BRA|YIELD" | head -300 > "$O/sass.txt"
tail -4 "$L"
