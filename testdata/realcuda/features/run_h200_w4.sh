#!/bin/sh
# The second H200 recording (2026-12-02), one device call: nvcc PTX of mathyd.cu, mathy.cu,
# mathv.cu and warpsync.cu; the math sweep of the functions those files add (SWEEP_SKIP=1:
# only the kernels linked in); warpsync.cu's outputs and compute-sanitizer racecheck on
# each of its two kernels; and the run-to-run repeatability of three real-code kernels
# with float atomics (docs/real-code.md): each harness run 20 times, in 20 processes.
#   sh run_h200_w4.sh OUTDIR ATOMDIR
# ATOMDIR holds scripts/realcode's device files (harness/ID.cu, src/ID.cu, data/ID.*.in.bin)
# of olcf_atomic_red, olcf_reduce_ws and lc_dot_prod_f32. Writes OUTDIR/ptx/, OUTDIR/math/sub/,
# OUTDIR/math/params.txt, OUTDIR/out/, OUTDIR/racecheck_*.txt, OUTDIR/atom/ID/rN/*.out.bin
# (the buffers that differ from the inputs), OUTDIR/atom/sha256.txt and OUTDIR/versions.txt.
o=${1:?usage: run_h200_w4.sh OUTDIR ATOMDIR}
a=${2:?usage: run_h200_w4.sh OUTDIR ATOMDIR}
ids="olcf_atomic_red olcf_reduce_ws lc_dot_prod_f32"
mkdir -p "$o/ptx" "$o/out" "$o/math/sub" "$o/math/full" "$o/bin" "$o/log" "$o/atom"
for f in mathyd mathy mathv warpsync; do
    nvcc -ptx -lineinfo -arch=sm_90 $f.cu -o "$o/ptx/$f.sm_90.ptx" > "$o/log/ptx_$f.txt" 2>&1 &
done
for u in main mathyd mathy mathv; do
    nvcc -O2 -arch=sm_90 -c sweep_$u.cu -o "$o/bin/sweep_$u.o" > "$o/log/sweep_$u.txt" 2>&1 &
done
nvcc -O2 -arch=sm_90 -lineinfo -o "$o/bin/warpsync_harness" warpsync_harness.cu > "$o/log/warpsync_harness.txt" 2>&1 &
for id in $ids; do
    nvcc -arch=sm_90 -lineinfo -o "$o/bin/$id" "$a/harness/$id.cu" > "$o/log/atom_$id.txt" 2>&1 &
done
wait
for id in $ids; do
    ( for r in $(seq 1 20); do
          d="$o/atom/$id/r$r"; mkdir -p "$d"
          "$o/bin/$id" "$a/data" "$d" >> "$o/log/run_$id.txt" 2>&1 || echo "run $r failed" >> "$o/log/run_$id.txt"
          for f in "$d"/*.out.bin; do
              b=$(basename "$f" .out.bin)
              if cmp -s "$f" "$a/data/$b.in.bin"; then rm "$f"; fi
          done
      done ) &
done
nvcc -arch=sm_90 -o "$o/bin/sweep" "$o/bin"/sweep_*.o > "$o/log/sweep_link.txt" 2>&1
SWEEP_SKIP=1 "$o/bin/sweep" "$o/math" > "$o/log/run_sweep.txt" 2>&1 || echo "sweep failed"
rm -rf "$o/math/full"
"$o/bin/warpsync_harness" "$o/out" > "$o/log/run_warpsync.txt" 2>&1 || echo "warpsync_harness failed"
for k in volatile syncwarp; do
    mkdir -p "$o/cs_$k"
    timeout 25 compute-sanitizer --tool racecheck --print-limit 20 "$o/bin/warpsync_harness" "$o/cs_$k" $k > "$o/racecheck_$k.txt" 2>&1
    echo "exit $?" >> "$o/racecheck_$k.txt"
done
wait
( cd "$o/atom" && find . -name '*.out.bin' | sort | xargs sha256sum > sha256.txt )
rm -rf "$o/bin"
{ nvcc --version; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > "$o/versions.txt"
