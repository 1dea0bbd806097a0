#!/usr/bin/env bash
# Copies what scripts/contention/device.sh needs into /work/main/.dev/exec (carried to the device).
set -eu
R=$(cd "$(dirname "$0")/../.." && pwd)
D=${1:-/work/main/.dev/exec}
rm -rf "$D"; mkdir -p "$D"
cp "$R"/scripts/contention/{contention.cu,device.sh} "$D/"
