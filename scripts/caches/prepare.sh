#!/usr/bin/env bash
# Copies what scripts/caches/device.sh needs into /work/main/.dev/caches (carried to the device).
set -eu
R=$(cd "$(dirname "$0")/../.." && pwd)
D=${1:-/work/main/.dev/caches}
rm -rf "$D"; mkdir -p "$D/data" "$D/src"
cp "$R"/scripts/caches/{micro.cu,golden.cu,device.sh} "$D/"
cp "$R"/testdata/golden/src/*.cu "$D/src/"
cp "$R"/testdata/golden/data/*.in.bin "$D/data/"
python3 "$R/scripts/caches/cases.py" "$D"
