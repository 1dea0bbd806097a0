#!/bin/bash
# Stages scripts/tensor4 into /work/main/.dev/tensor (see device_run.sh).
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
dst=${1:-/work/main/.dev/tensor}
rm -rf "$dst"; mkdir -p "$dst/src"
cp "$root"/testdata/measured/tensor3/src/tma_kernels.cuh "$root"/testdata/measured/tensor4/src/tma_stream.cuh \
   "$root"/testdata/measured/tensor/src/wmma_gemm.cu "$root"/testdata/measured/tensor/src/mma_gemm.cu \
   "$root"/testdata/measured/tensor2/src/wgmma_gemm.cu "$root"/scripts/tensor4/cluster_probe.cuh "$dst/src/"
cp "$root"/scripts/tensor4/{harness.cu,device_run.sh} "$dst/"
