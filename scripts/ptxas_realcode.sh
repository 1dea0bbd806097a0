#!/usr/bin/env bash
# Runs KernelScope (this tree) on the nvcc PTX of every real-code kernel, as scripts/real_code.sh's
# nvcc path does, and keeps each JSON report in build/ptxas/realcode/ID.json (stats.sass_instructions
# and the merged memory counters are what docs/ptxas.md compares with ncu_h200.json).
# Needs the command lines and inputs of a real-code run: RC=build/realcode (default: this tree's,
# else /work/main's) with local/nvcc/*.cmd, device/data and h200/ptx.
set -euo pipefail
cd "$(dirname "$0")/.."
RC=${RC:-build/realcode}
[ -d "$RC/local/nvcc" ] || RC=/work/main/build/realcode
OUTD=build/ptxas/realcode
mkdir -p "$OUTD"
go build -o build/ptxas/kernelscope .
KS=$(realpath build/ptxas/kernelscope)
one() {
  id=$(basename "$1" .cmd)
  cmd=$(sed -e "s#^[^ ]*kernelscope run#$KS run#" -e 's# --check all##' -e 's# --timing on# --timing off#' -e 's# --dump [^ ]*##' "$1")
  eval "$cmd" > "$OUTD/$id.json" 2> "$OUTD/$id.err" || true
}
export -f one; export KS OUTD
ls "$RC"/local/nvcc/*.cmd | xargs -P "${JOBS:-2}" -I{} bash -c 'one {}'
ls "$OUTD"/*.json | wc -l
