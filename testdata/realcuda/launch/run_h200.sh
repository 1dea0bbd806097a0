#!/bin/sh
# Makes this folder's ground truth on an H200 (CUDA 13): nvcc PTX of every kernel
# file and the buffers after each case of harness.cu. Run from this folder:
#   sh run_h200.sh OUTDIR
# It writes OUTDIR/ptx/*.sm_90.ptx, OUTDIR/out/*.out.bin and OUTDIR/versions.txt.
set -e  # the harness may fail and still leave what it wrote
o=${1:?usage: run_h200.sh OUTDIR}
mkdir -p "$o/ptx" "$o/out"
for f in dynsmem signatures specials symbols vectypes; do
    nvcc -ptx -lineinfo -arch=sm_90 $f.cu -o "$o/ptx/$f.sm_90.ptx"
done
nvcc -O2 -arch=sm_90 -o "$o/harness" harness.cu || nvcc -DNO_HW -O2 -arch=sm_90 -o "$o/harness" harness.cu
"$o/harness" "$o/out" || echo "harness failed"
{ nvcc --version; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > "$o/versions.txt"
