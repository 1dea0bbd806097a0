#!/usr/bin/env bash
# Runs every program of testdata/programs/ compiled by nvcc on the H200 and records what it
# printed, for gpu/program's TestProgramsMatchH200. Made with the device tool:
#   run(command="bash testdata/programs/h200/run_h200.sh")   (then copy $OUT's files here)
# For each case NAME (program, argv, stdin) it writes NAME.out (stdout), NAME.err (stderr)
# and NAME.rc (exit status as bash reports it: 128+N for signal N).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/programs_h200}
BIN=$(mktemp -d)
mkdir -p "$OUT"
nvcc --version | tail -2 > "$OUT/nvcc_version.txt"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/gpu.txt"
# case name | source | argv | stdin
CASES=(
  "vector_add|vector_add.cu||"
  "constant|constant.cu||"
  "scan|scan.cu||"
  "oob|oob.cu||"
  "events|events.cu||"
  "argv_stdin|argv_stdin.cu|3|1 2 3 -4"
  "argv_stdin_empty|argv_stdin.cu||"
  "segfault|segfault.cu||"
  "launch_api|launch_api.cu||"
  "symbol_init|symbol_init.cu||"
  "with_header|with_header.cu||"
  "pinned|pinned.cu||"
  "func_attrs|func_attrs.cu||"
  "pitch|pitch.cu||"
  "assert|assert.cu||"
  "race|race.cu||"
  "many_launches|many_launches.cu||"
)
for c in "${CASES[@]}"; do
  IFS='|' read -r name src args input <<<"$c"
  bin=$BIN/${src%.cu}
  if [ ! -x "$bin" ]; then
    nvcc -arch=sm_90 -lineinfo -I. -o "$bin" "$src" 2>"$OUT/$name.build.err" || { echo build-failed > "$OUT/$name.rc"; continue; }
  fi
  if [ -n "$input" ]; then printf '%s\n' "$input"; fi | timeout 60 "$bin" $args >"$OUT/$name.out" 2>"$OUT/$name.err"
  echo $? > "$OUT/$name.rc"
done
ls "$OUT"
