#!/usr/bin/env bash
# Runs on the machine with the H200 (KernelScope's device tool), from the repository root, after
# `go run ./scripts/realcode prepare` has written build/realcode/device/{src,harness,data} here and
# that folder was carried over. Writes into $OUT: the kernels' output buffers, nvcc's PTX, ncu's
# counters, logs; packed as realcode_h200.tgz.part-* (each < 16 MiB).
set -u
R=${RC_DEVICE:-build/realcode/device}  # RC_DEVICE: a folder with a subset of the kernels
O=${OUT:?}
W=$(mktemp -d)
mkdir -p "$W/bin" "$W/out" "$W/ptx" "$W/log" "$W/ncuout"
nvcc --version > "$W/nvcc_version.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$W/gpu.txt" 2>&1
export R W
compile() {
  id=$1
  nvcc -arch=sm_90 -lineinfo -o "$W/bin/$id" "$R/harness/$id.cu" > "$W/log/$id.compile.txt" 2>&1 || echo "exit $?" >> "$W/log/$id.compile.txt"
  nvcc -arch=sm_90 -lineinfo -ptx -o "$W/ptx/$id.ptx" "$R/harness/$id.cu" > "$W/log/$id.ptx.txt" 2>&1 || echo "exit $?" >> "$W/log/$id.ptx.txt"
}
export -f compile
ls "$R/harness" | sed 's/\.cu$//' | xargs -P 16 -I{} bash -c 'compile {}'
date +%s > "$W/t_compiled"
run() {
  id=$1
  [ -x "$W/bin/$id" ] || { echo "not built" > "$W/log/$id.run.txt"; return; }
  timeout 60 "$W/bin/$id" "$R/data" "$W/out" > "$W/log/$id.run.txt" 2>&1; echo "exit $?" >> "$W/log/$id.run.txt"
}
export -f run
ls "$R/harness" | sed 's/\.cu$//' | xargs -P 8 -I{} bash -c 'run {}'
date +%s > "$W/t_ran"
M=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,sm__cycles_elapsed.max,sm__cycles_elapsed.avg.per_second,smsp__inst_executed.sum,l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct
# NCU_CLOCK: ncu's --clock-control; "none" leaves the GPU at its boost clock (1.98 GHz on the
# H200), the clock every calibration in testdata/measured was made at ("base" locks ~1.5 GHz)
echo "ncu --clock-control ${NCU_CLOCK:-none}" > "$W/ncu_clock.txt"
# one ncu per binary: a launch that fails under ncu ends only its own profile
mkdir -p "$W/ncu"
end=$(( $(date +%s) + ${NCU_TIMEOUT:-360} ))
for b in "$W"/bin/*; do
  id=$(basename "$b")
  left=$(( end - $(date +%s) ))
  [ "$left" -gt 0 ] || { echo "$id: no time left" >> "$W/ncu.err"; continue; }
  timeout "$left" ncu --clock-control ${NCU_CLOCK:-none} --csv --page raw --metrics "$M" \
    "$b" "$R/data" "$W/ncuout" "$W/ncu_pids.txt" > "$W/ncu/$id.csv" 2>> "$W/ncu.err"
  echo "$id: ncu exit $?" >> "$W/ncu.err"
done
date +%s > "$W/t_ncu"
# bring back only buffers the kernel changed (the inputs are regenerated here), hashes of all
( cd "$W/out" && sha256sum *.out.bin > "$W/out_sha256.txt" )
( cd "$W/ptx" && sha256sum *.ptx > "$W/ptx_sha256.txt" )
for f in "$W"/out/*.out.bin; do
  b=$(basename "$f" .out.bin)
  if cmp -s "$f" "$R/data/$b.in.bin"; then rm "$f"; fi
done
rm -rf "$W/bin" "$W/ncuout"
tar czf - -C "$W" . | split -b 15m - "$O/realcode_h200.tgz.part-"
ls -la "$O"
