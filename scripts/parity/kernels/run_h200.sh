#!/bin/sh
# nvcc's PTX of this folder's kernels on a machine with CUDA (the H200 of the project):
#   sh run_h200.sh OUTDIR   -> OUTDIR/regtile.sm_90.ptx, OUTDIR/versions.txt
set -e
o=${1:?usage: run_h200.sh OUTDIR}
mkdir -p "$o"
nvcc -ptx -lineinfo -arch=sm_90 regtile.cu -o "$o/regtile.sm_90.ptx"
{ nvcc --version; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > "$o/versions.txt"
