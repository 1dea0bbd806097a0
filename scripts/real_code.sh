#!/usr/bin/env bash
# The real-code measurement (docs/real-code.md): public CUDA written by others, run unmodified
# through KernelScope's clang path and nvcc-PTX path, compared with an H200.
#
#   bash scripts/real_code.sh            # extract, run KernelScope on every kernel, write docs/real-code.md
#   bash scripts/real_code.sh --device   # print how to remake the H200 ground truth (device tool)
#
# Needs the repositories of testdata/realcode/manifest.json fetched as bare git directories under
# $MIRROR (default /work/.mirror/OWNER+NAME/repo, as the fetch tool puts them). Everything extracted
# or generated goes to build/realcode/ (ignored by git): third-party source is never committed.
# The nvcc-PTX path needs build/realcode/h200/ptx/ from a device run (the PTX is derived from the
# third-party code, so only its sha256 is stored in testdata/realcode/h200/results.json).
set -euo pipefail
cd "$(dirname "$0")/.."
MIRROR=${MIRROR:-/work/.mirror}
KS=${KS:-build/kernelscope}
JOBS=${JOBS:-2}
go build -o build/realcode/realcode ./scripts/realcode
RC=build/realcode/realcode
$RC prepare -mirror "$MIRROR"
if [ "${1:-}" = "--device" ]; then
  cat <<'TXT'
Device step (the H200 machine cannot reach the mirror, so the extracted sources travel with the tree):
  run(command="bash scripts/realcode/device.sh", carry=["build/realcode/device"])
then unpack what came back and store the ground truth:
  mkdir -p build/realcode/h200 && cat FILES_AT/realcode_h200.tgz.part-* | tar xzf - -C build/realcode/h200
  build/realcode/realcode ingest
and rerun this script without --device.
TXT
  exit 0
fi
[ -x "$KS" ] || go build -o "$KS" .
$RC local -kernelscope "$KS" -j "$JOBS"
$RC report
echo "wrote docs/real-code.md"
