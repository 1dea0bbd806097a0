#!/bin/bash
# Stages the device inputs into /work/main/.dev/tensor (see device_run.sh).
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
dst=${1:-/work/main/.dev/tensor}
rm -rf "$dst"; mkdir -p "$dst/src"
(cd "$root" && go run ./scripts/tensor/gen "$dst")
cp "$root"/testdata/measured/tensor/src/*.cu "$dst/src/"
cp "$root"/scripts/tensor/gemm_main.cu "$root"/scripts/tensor/bulk_main.cu "$root"/scripts/tensor/device_run.sh "$root"/scripts/tensor/device_run2.sh "$dst/"
