#!/usr/bin/env bash
# Runs on the H200 machine from the repository root with .dev/caches carried over (made by
# scripts/caches/prepare.sh). Writes into $OUT: atomics.csv (event-timed atomic throughput),
# micro_labels.txt + micro_ncu.csv (policy probes), golden_ncu.csv, scale_ncu.csv, metrics.txt, log.txt.
set -u
D=.dev/caches
O=${OUT:?}
L="$O/log.txt"
cd "$D" || exit 1
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader; nvcc --version | tail -2; } > "$L" 2>&1
mkdir -p cubin
T0=$(date +%s)
( nvcc -O3 -arch=sm_90 -o micro micro.cu >> "$L" 2>&1; echo "micro build $?" >> "$L" ) &
( nvcc -O2 -arch=sm_90 -o golden golden.cu -lcuda >> "$L" 2>&1; echo "golden build $?" >> "$L" ) &
for s in src/*.cu; do b=$(basename "$s" .cu); ( nvcc -cubin -lineinfo -arch=sm_90 -o "cubin/$b.cubin" "$s" >> "$L" 2>&1 || echo "cubin $b failed" >> "$L" ) & done
wait
echo "built in $(( $(date +%s) - T0 )) s" >> "$L"
timeout 30 ./micro time "$O" > "$O/atomics.csv" 2>> "$L"; echo "atomics exit $? at $(( $(date +%s) - T0 )) s" >> "$L"
M=l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct
for m in l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss \
  l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_miss \
  l1tex__t_sectors_lookup_hit l1tex__t_sectors_lookup_miss l1tex__t_requests_pipe_lsu_mem_global_op_ld \
  lts__t_sectors_lookup_hit lts__t_sectors_lookup_miss lts__t_sectors_srcunit_tex lts__t_sectors_srcunit_tex_lookup_hit \
  lts__t_sectors_srcunit_tex_op_read_lookup_hit lts__t_sectors_srcunit_tex_op_read_lookup_miss \
  lts__t_sectors_srcunit_tex_op_write_lookup_hit lts__t_sectors_srcunit_tex_op_write_lookup_miss \
  lts__t_sectors_srcunit_tex_op_atom_lookup_hit lts__t_sectors_srcunit_tex_op_atom_lookup_miss \
  lts__t_sectors_srcunit_tex_op_red_lookup_hit lts__t_sectors_srcunit_tex_op_red_lookup_miss \
  lts__t_sectors_srcunit_ltcfabric dram__sectors_read dram__sectors_write; do M="$M,$m.sum"; done
M="$M,sm__cycles_elapsed.max,gpu__time_duration.sum"
# keep only metrics this ncu knows (an unknown name fails the whole run)
timeout 20 ncu --query-metrics --chip gh100 > qm.txt 2>&1
K=""
for m in ${M//,/ }; do
  if grep -q "^${m%.*} " qm.txt; then K="$K,$m"; else echo "metric $m unknown" >> "$L"; fi
done
K=${K#,}
[ -n "$K" ] || K=$M
echo "$K" | tr , '\n' > "$O/metrics.txt"
NCU="ncu --clock-control none --cache-control all --csv --page raw --metrics $K"
timeout 55 $NCU --log-file "$O/micro_ncu.csv" ./micro ncu "$O" >> "$L" 2>&1; echo "micro ncu exit $? at $(( $(date +%s) - T0 )) s" >> "$L"
timeout 20 $NCU --log-file "$O/golden_ncu.csv" ./golden golden_cases.txt data >> "$L" 2>&1; echo "golden ncu exit $? at $(( $(date +%s) - T0 )) s" >> "$L"
timeout 40 $NCU --log-file "$O/scale_ncu.csv" ./golden scale_cases.txt data >> "$L" 2>&1; echo "scale ncu exit $? at $(( $(date +%s) - T0 )) s" >> "$L"
cuobjdump -sass micro 2>/dev/null | grep -E "Function|LDG|STG|ATOM|RED|ATOMS|CCTL" | head -400 > "$O/micro_sass.txt"
tail -5 "$L"
