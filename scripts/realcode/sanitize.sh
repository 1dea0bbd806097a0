#!/usr/bin/env bash
# Runs on the machine with the H200, from the repository root, with build/realcode/device carried
# over (see device.sh): NVIDIA's compute-sanitizer on every kernel's harness, as the independent
# check of KernelScope's race/init/sync findings (docs/real-code.md, "Correctness checks").
# racecheck and synccheck for every kernel; memcheck and initcheck too for the kernels named in
# $FULL (space-separated ids). Writes $OUT/realcode_sanitizer.tgz (one log per kernel and tool).
# SAN_TIMEOUT bounds the whole sanitizer pass (seconds), KERNEL_TIMEOUT each run.
set -u
R=${RC_DEVICE:-build/realcode/device}
O=${OUT:?}
W=$(mktemp -d)
mkdir -p "$W/bin" "$W/log" "$W/out"
export R W
build() {
  nvcc -arch=sm_90 -lineinfo -o "$W/bin/$1" "$R/harness/$1.cu" > "$W/log/$1.build.txt" 2>&1 || echo "exit $?" >> "$W/log/$1.build.txt"
}
export -f build
ls "$R/harness" | sed 's/\.cu$//' | xargs -P 16 -I{} bash -c 'build {}'
date +%s > "$W/t_built"
san() {
  id=$1 tool=$2
  [ -x "$W/bin/$id" ] || { echo "not built" > "$W/log/$id.$tool.txt"; return; }
  extra=""
  [ "$tool" = racecheck ] && extra="--racecheck-report all"
  timeout "${KERNEL_TIMEOUT:-40}" compute-sanitizer --tool "$tool" $extra --print-limit 20 "$W/bin/$id" "$R/data" "$W/out" > "$W/log/$id.$tool.txt" 2>&1
  echo "exit $?" >> "$W/log/$id.$tool.txt"
}
export -f san
{
  for id in $(ls "$R/harness" | sed 's/\.cu$//'); do echo "$id racecheck"; echo "$id synccheck"; done
  for id in ${FULL:-}; do echo "$id memcheck"; echo "$id initcheck"; done
} > "$W/jobs.txt"
timeout "${SAN_TIMEOUT:-120}" xargs -P 8 -L 1 bash -c 'san "$0" "$1"' < "$W/jobs.txt"
echo "sanitizer pass exit $?" > "$W/t_done"
date +%s >> "$W/t_done"
compute-sanitizer --version > "$W/version.txt" 2>&1
rm -rf "$W/bin" "$W/out"
tar czf "$O/realcode_sanitizer.tgz" -C "$W" .
ls -la "$O"
