#!/usr/bin/env bash
# Measures copy times on the H200 for gpu/program's copy model. Made with the device tool:
#   run(command="bash testdata/programs/h200/run_copybench.sh")   (then copy $OUT/copy_times.txt here)
set -euo pipefail
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/copybench}
mkdir -p "$OUT"
BIN=$(mktemp -d)
nvcc -O2 -arch=sm_90 -o "$BIN/copybench" copybench.cu
{
  echo "# made by: bash testdata/programs/h200/run_copybench.sh (nvcc -O2 -arch=sm_90 copybench.cu; ./copybench)"
  echo "# $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader); $(nvcc --version | tail -1)"
  "$BIN/copybench"
} > "$OUT/copy_times.txt"
cat "$OUT/copy_times.txt"
