#!/bin/sh
# Makes this folder's H200 ground truth (CUDA 13): nvcc PTX of cluster.cu (and SASS), the
# harness's buffers and limits, and Nsight Compute's sm__cycles_elapsed.max per launch.
#   sh run_h200.sh OUTDIR
# %is_explicit_cluster is read as a .pred (-DEXPLICIT_PRED) when ptxas accepts it, else as
# a .u32, else not at all; log_build.txt says which build was used.
o=${1:?usage: run_h200.sh OUTDIR}
mkdir -p "$o/out" "$o/bin" /tmp/ncu_out
for d in EXPLICIT_PRED EXPLICIT_U32 NONE; do
    echo "build -D$d" >> "$o/log_build.txt"
    if nvcc -O2 -arch=sm_90 -lineinfo -D$d -o "$o/bin/harness" harness.cu >> "$o/log_build.txt" 2>&1; then
        nvcc -ptx -lineinfo -arch=sm_90 -D$d cluster.cu -o "$o/cluster.sm_90.ptx" >> "$o/log_build.txt" 2>&1
        echo "used -D$d" >> "$o/log_build.txt"
        break
    fi
done
cuobjdump -sass "$o/bin/harness" > "$o/cluster.sass" 2>&1
"$o/bin/harness" "$o/out" > "$o/log_run.txt" 2>&1 || echo "harness failed" >> "$o/log_run.txt"
timeout 200 ncu --clock-control none --metrics sm__cycles_elapsed.max --csv "$o/bin/harness" /tmp/ncu_out > "$o/ncu.csv" 2> "$o/log_ncu.txt" || echo "ncu failed" >> "$o/log_ncu.txt"
rm -rf "$o/bin"
{ nvcc --version; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > "$o/versions.txt"
