#!/usr/bin/env bash
# Copies the device inputs of scripts/atomics to /work/main/build/dev-atomics (the device tool
# runs in a copy of /work/main's tree; carry build/dev-atomics), then:
#   run(command="bash build/dev-atomics/device.sh", carry=["build/dev-atomics"])
#   run(command="bash build/dev-atomics/device_offsets.sh", carry=["build/dev-atomics"])
set -eu
R=$(cd "$(dirname "$0")/../.." && pwd)
M=${MAIN:-/work/main}
mkdir -p "$M/build/dev-atomics"
cp "$R/scripts/atomics/atomics.cu" "$R/scripts/atomics/device.sh" "$R/scripts/atomics/offsets.cu" "$R/scripts/atomics/device_offsets.sh" "$M/build/dev-atomics/"
