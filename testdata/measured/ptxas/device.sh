#!/usr/bin/env bash
# gpu/ptxas ground truth, run on the H200 device machine from the repository root:
#   bash .dev/ptxas/device.sh      (D=.dev/ptxas holds this folder + build/realcode/device as realcode/)
# 1. nvcc cubins of the golden sources (sm_90), of iso.cu and bank.cu (sm_75..sm_90), of the
#    real-code harnesses (sm_90, --keep for PTX and cubin); cuobjdump -sass and nvdisasm -c -g listings.
# 2. ncu (--clock-control none) on every manifest.txt launch (golden, scale, iso, bank) and, time
#    permitting, on the real-code binaries: warp-instructions, per-pipe and per-opcode counts,
#    memory counters. Everything is packed into $OUT/ptxas_h200.tgz.
set -u
D=${D:-.dev/ptxas}; O=${OUT:?}; BUDGET=${BUDGET:-200}; T0=$(date +%s)
left() { echo $(( BUDGET - ($(date +%s) - T0) )); }
W=$(mktemp -d); mkdir -p "$W/cubin" "$W/sass" "$W/ncu" "$W/log" "$W/rc" "$W/bin"
export W D
{ nvcc --version; ncu --version; nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv; date -u; } > "$W/versions.txt" 2>&1
( ncu --query-metrics > "$W/query_metrics.txt" 2>&1 ) &
QP=$!
cc() {  # NAME SRC ARCH
  nvcc -arch=$3 -cubin -lineinfo -o "$W/cubin/$1.$3.cubin" "$2" > "$W/log/$1.$3.txt" 2>&1 || return
  cuobjdump -sass "$W/cubin/$1.$3.cubin" > "$W/sass/$1.$3.sass" 2>> "$W/log/$1.$3.txt"
  case $3 in sm_80|sm_90) nvdisasm -c -g "$W/cubin/$1.$3.cubin" > "$W/sass/$1.$3.nvdisasm" 2>> "$W/log/$1.$3.txt";; esac
}
rcc() {  # real-code harness ID
  mkdir -p "$W/rc/$1"
  nvcc -arch=sm_90 -lineinfo --keep --keep-dir "$W/rc/$1" -o "$W/bin/$1" "$D/realcode/harness/$1.cu" > "$W/log/rc.$1.txt" 2>&1 || return
  c=$(ls "$W/rc/$1"/*.sm_90.cubin 2>/dev/null | head -1)
  cuobjdump -sass "$W/bin/$1" > "$W/sass/rc.$1.sm_90.sass" 2>> "$W/log/rc.$1.txt"
  [ -n "$c" ] && nvdisasm -c -g "$c" > "$W/sass/rc.$1.sm_90.nvdisasm" 2>> "$W/log/rc.$1.txt"
  p=$(ls "$W/rc/$1"/*.ptx 2>/dev/null | head -1); [ -n "$p" ] && cp "$p" "$W/sass/rc.$1.sm_90.ptx"
  find "$W/rc/$1" -type f ! -name '*.ptx' -delete
}
export -f cc rcc
{
  for s in testdata/golden/src/*.cu; do echo "$(basename $s .cu) $s sm_90"; done
  for a in sm_75 sm_80 sm_86 sm_89 sm_90; do echo "iso $D/iso.cu $a"; echo "bank $D/bank.cu $a"; done
} | xargs -P 16 -L 1 bash -c 'cc $0 $1 $2'
nvcc -arch=sm_90 -ptx -lineinfo -o "$W/sass/iso.sm_90.ptx" "$D/iso.cu"; nvcc -arch=sm_90 -ptx -lineinfo -o "$W/sass/bank.sm_90.ptx" "$D/bank.cu"
nvcc -o "$W/host" "$D/host.cpp" -lcuda > "$W/log/host.txt" 2>&1
ls "$D/realcode/harness" 2>/dev/null | sed 's/\.cu$//' | xargs -P 16 -I{} bash -c 'rcc {}' &
RCP=$!
echo "compiled golden/iso/bank at +$(( $(date +%s) - T0 ))s" >> "$W/log/timeline.txt"
wait $QP
M0=smsp__inst_executed.sum,sm__cycles_elapsed.max,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
CAND="smsp__inst_executed_pipe_adu smsp__inst_executed_pipe_alu smsp__inst_executed_pipe_cbu smsp__inst_executed_pipe_fma smsp__inst_executed_pipe_fmaheavy smsp__inst_executed_pipe_fmalite smsp__inst_executed_pipe_fp16 smsp__inst_executed_pipe_fp64 smsp__inst_executed_pipe_lsu smsp__inst_executed_pipe_tensor smsp__inst_executed_pipe_uniform smsp__inst_executed_pipe_xu smsp__sass_inst_executed_op_shared_ld smsp__sass_inst_executed_op_shared_st smsp__sass_inst_executed_op_global_ld smsp__sass_inst_executed_op_global_st smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_ideal smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ld smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_st l1tex__data_bank_conflicts_pipe_lsu l1tex__data_bank_conflicts_pipe_lsu_mem_shared l1tex__data_pipe_lsu_wavefronts l1tex__data_bank_reads l1tex__data_bank_writes l1tex__m_xbar2l1tex_read_sectors l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss smsp__inst_executed_op_ldsm"
M=$M0
for c in $CAND; do grep -qw "$c" "$W/query_metrics.txt" && M="$M,$c.sum"; done
echo "$M" > "$W/metrics_used.txt"
sed "s#cubin/#$W/cubin/#" "$D/manifest.txt" > "$W/manifest.txt"
NCU="ncu --clock-control none --csv --page raw --print-metric-instances details"
MP="$M,sass__inst_executed_per_opcode"
if timeout 25 $NCU --metrics "$MP" "$W/host" "$W/manifest.txt" iso.iso_param > "$W/ncu/probe.csv" 2> "$W/ncu/probe.err"; then M=$MP
elif timeout 20 $NCU --metrics "$M" "$W/host" "$W/manifest.txt" iso.iso_param > "$W/ncu/probe2.csv" 2> "$W/ncu/probe2.err"; then echo "no per-opcode" >> "$W/log/timeline.txt"
else NCU="ncu --clock-control none --csv --page raw"; echo "no instances" >> "$W/log/timeline.txt"; fi
echo "$M" > "$W/metrics_used.txt"; echo "probe done at +$(( $(date +%s) - T0 ))s: $NCU" >> "$W/log/timeline.txt"
for part in bank iso golden scale; do
  t=$(left); [ "$t" -gt 15 ] || break
  timeout $(( t - 10 )) $NCU --metrics "$M" "$W/host" "$W/manifest.txt" $part. > "$W/ncu/$part.csv" 2> "$W/ncu/$part.err"
  echo "ncu $part exit $? at +$(( $(date +%s) - T0 ))s" >> "$W/log/timeline.txt"
done
wait $RCP
echo "compiled realcode at +$(( $(date +%s) - T0 ))s" >> "$W/log/timeline.txt"
n=0
ls "$W/bin" > "$W/rc_list.txt"
split -l 10 "$W/rc_list.txt" "$W/rc_chunk."
for ch in "$W"/rc_chunk.*; do
  t=$(left); [ "$t" -gt 15 ] || break
  timeout $(( t - 8 )) $NCU --target-processes all --metrics "$M" bash -c 'for id in $(cat '"$ch"'); do "$W/bin/$id" "$D/realcode/data" /tmp >/dev/null 2>&1; echo "$id" >> "$W/rc_ran.txt"; done' > "$W/ncu/rc.$(basename $ch).csv" 2>> "$W/ncu/rc.err"
  echo "ncu $(basename $ch) exit $? at +$(( $(date +%s) - T0 ))s" >> "$W/log/timeline.txt"
  n=$((n+1))
done
echo "realcode ncu: $n binaries, at +$(( $(date +%s) - T0 ))s" >> "$W/log/timeline.txt"
rm -rf "$W/cubin/"*.cubin.tmp "$W/bin" "$W/host" "$W/rc"
tar czf "$O/ptxas_h200.tgz" -C "$W" . ; ls -la "$O"; cat "$W/log/timeline.txt"
