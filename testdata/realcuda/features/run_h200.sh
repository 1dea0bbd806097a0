#!/bin/sh
# Makes this folder's ground truth on an H200 (CUDA 13): nvcc PTX of every kernel file,
# the feature harness's buffers, the grid-sync and assert harnesses' outputs, and the
# math sweep. Run from this folder:
#   sh run_h200.sh OUTDIR
# It writes OUTDIR/ptx/*.sm_90.ptx, OUTDIR/out/*.out.bin, OUTDIR/assert.txt,
# OUTDIR/math/sub/*.bin, OUTDIR/math/full/*.bin, OUTDIR/math/params.txt and
# OUTDIR/versions.txt. The compiles run in parallel; OUTDIR/log/ keeps their messages.
o=${1:?usage: run_h200.sh OUTDIR}
mkdir -p "$o/ptx" "$o/out" "$o/math/sub" "$o/math/full" "$o/bin" "$o/log"
for f in cg grid fp16 cachehints assert cub mathf mathx mathd mathxd; do
    nvcc -ptx -lineinfo -arch=sm_90 $f.cu -o "$o/ptx/$f.sm_90.ptx" > "$o/log/ptx_$f.txt" 2>&1 &
done
for h in CG FP16 HINTS CUB; do
    nvcc -O2 -arch=sm_90 -DONLY_$h -o "$o/bin/harness_$h" harness.cu > "$o/log/harness_$h.txt" 2>&1 &
done
nvcc -O2 -arch=sm_90 -rdc=true -o "$o/bin/grid_harness" grid_harness.cu > "$o/log/grid_harness.txt" 2>&1 &
nvcc -O2 -arch=sm_90 -o "$o/bin/assert_harness" assert_harness.cu > "$o/log/assert_harness.txt" 2>&1 &
for u in main mathf mathx mathd mathxd; do
    nvcc -O2 -arch=sm_90 -c sweep_$u.cu -o "$o/bin/sweep_$u.o" > "$o/log/sweep_$u.txt" 2>&1 &
done
wait
nvcc -arch=sm_90 -o "$o/bin/sweep" "$o/bin"/sweep_*.o > "$o/log/sweep_link.txt" 2>&1
for h in CG FP16 HINTS CUB; do
    "$o/bin/harness_$h" "$o/out" > "$o/log/run_harness_$h.txt" 2>&1 || echo "harness_$h failed"
done
"$o/bin/grid_harness" "$o/out" > "$o/log/run_grid.txt" 2>&1 || echo "grid_harness failed"
"$o/bin/assert_harness" "$o/out" > "$o/assert.txt" 2>&1 || echo "assert_harness failed"
"$o/bin/sweep" "$o/math" > "$o/log/run_sweep.txt" 2>&1 || echo "sweep failed"
rm -rf "$o/bin"
{ nvcc --version; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > "$o/versions.txt"
