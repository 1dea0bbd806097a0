#!/bin/bash
# Stages the wgmma probe into /work/main/.dev/tensor2 (see device_run.sh).
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
dst=${1:-/work/main/.dev/tensor2}
rm -rf "$dst"; mkdir -p "$dst"
(cd "$root" && go run ./scripts/tensor2/gen "$dst")
cp "$root"/testdata/measured/tensor/cases/{f16_f32_k16,bf16_f32_k16,f16_f16_k16,tf32_k8}.in "$dst/cases/"
cp "$root"/scripts/tensor2/device_run.sh "$dst/"
