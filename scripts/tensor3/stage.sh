#!/bin/bash
# Stages the TMA / fp8 / ldmatrix probes into /work/main/.dev/tma (see device_run.sh).
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
dst=${1:-/work/main/.dev/tma}
rm -rf "$dst"; mkdir -p "$dst"
(cd "$root" && go run ./scripts/tensor3/gen "$dst" && go run ./scripts/tensor3/fp8gen "$dst")
# the TMA kernels live once, in testdata (the clang-path test compiles them there)
cp "$root"/testdata/measured/tensor3/src/tma_kernels.cuh "$dst/"
cp "$root"/scripts/tensor3/{tma_probe.cu,ldsm_probe.cu,device_run.sh,device_run2.sh} "$dst/"
