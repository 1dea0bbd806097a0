#!/usr/bin/env bash
# Writes testdata/measured/caches/ptx/contention.ptx from scripts/caches/contention.cu with
# clang as KernelScope's toolchain runs it (gpu/toolchain/doc.go), prelude from gpu/toolchain/prelude.
set -eu
R=$(cd "$(dirname "$0")/../.." && pwd)
P=$(mktemp -d); trap 'rm -rf "$P"' EXIT
cp -r "$R/gpu/toolchain/prelude/." "$P/"; mkdir -p "$P/crt"; : > "$P/crt/sm_70_rt.hpp"
CLANG=$(command -v clang-19 || command -v clang)
"$CLANG" -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 -nocudainc -nocudalib -O3 -S \
  -mllvm -unroll-threshold=1000 -mllvm -unroll-max-count=4 -I"$P" -include kernelscope_prelude.h \
  "$R/scripts/caches/contention.cu" -o "$R/testdata/measured/caches/ptx/contention.ptx"
