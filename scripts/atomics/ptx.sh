#!/usr/bin/env bash
# Writes testdata/measured/atomics/ptx/atomics.ptx: the kernels of
# scripts/atomics/atomics.cu (its __global__ functions, without the host
# code) compiled by clang as KernelScope's toolchain runs it (as scripts/contention/ptx.sh).
set -eu
R=$(cd "$(dirname "$0")/../.." && pwd)
P=$(mktemp -d); trap 'rm -rf "$P"' EXIT
cp -r "$R/gpu/toolchain/prelude/." "$P/"; mkdir -p "$P/crt"; : > "$P/crt/sm_70_rt.hpp"
awk '/^(extern "C" )?__global__|^__device__/,/^}/' "$R/scripts/atomics/atomics.cu" | sed 's/^__global__/extern "C" __global__/' > "$P/k.cu"
mkdir -p "$R/testdata/measured/atomics/ptx"
CLANG=$(command -v clang-19 || command -v clang)
"$CLANG" -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 -nocudainc -nocudalib -O3 -S \
  -mllvm -unroll-threshold=1000 -mllvm -unroll-max-count=4 -I"$P" -include kernelscope_prelude.h \
  "$P/k.cu" -o "$R/testdata/measured/atomics/ptx/atomics.ptx"
