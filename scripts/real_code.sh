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
# CHECKS is kernelscope run's --check value (default all: race, init, sync and order).
# FROM=tree builds kernelscope from the working tree (with whatever others have not committed);
# the default FROM=head builds it from a `git archive HEAD` export, so the figures are HEAD's.
set -euo pipefail
cd "$(dirname "$0")/.."
MIRROR=${MIRROR:-/work/.mirror}
KS=${KS:-build/kernelscope}
JOBS=${JOBS:-2}
CHECKS=${CHECKS:-all}
CGO_ENABLED=0 go build -o build/realcode/realcode ./scripts/realcode
RC=build/realcode/realcode
$RC prepare -mirror "$MIRROR"
if [ "${1:-}" = "--device" ]; then
  cat <<'TXT'
Device step (the H200 machine cannot reach the mirror, so the extracted sources travel with the tree;
the inputs, 26 MB, are made there by the static realcode binary, as the tree is near the tool's 64 MiB):
  run(command="build/realcode/realcode inputs && bash scripts/realcode/device.sh && bash scripts/realcode/sanitize.sh",
      carry=["build/realcode/realcode", "build/realcode/device/harness", "build/realcode/device/src"])
(if the tree itself passes 64 MiB, move notebooks/ and testdata/video aside for the call: device.sh
needs only scripts/realcode and testdata/realcode; ncu runs with --clock-control none, NCU_CLOCK to change)
(device.sh: buffers, PTX, ncu; sanitize.sh: compute-sanitizer racecheck and synccheck on every
kernel, memcheck and initcheck on those named in FULL="id id"). Then unpack and store:
  mkdir -p build/realcode/h200 && cat FILES_AT/realcode_h200.tgz.part-* | tar xzf - -C build/realcode/h200
  build/realcode/realcode ingest
  mkdir -p build/realcode/h200_sanitizer && tar xzf FILES_AT/realcode_sanitizer.tgz -C build/realcode/h200_sanitizer
  build/realcode/realcode ingest-sanitizer -raw build/realcode/h200_sanitizer
One kernel only: copy its src/harness/data files into build/realcode/device_one/, carry that,
run RC_DEVICE=build/realcode/device_one bash scripts/realcode/device.sh, unpack into another folder
and `build/realcode/realcode ingest -only ID -raw THAT_FOLDER` (merged into the stored results;
copy its ptx/ID.ptx into build/realcode/h200/ptx/).
Then rerun this script without --device.
TXT
  exit 0
fi
mkdir -p build/realcode/local
if [ "${FROM:-head}" = head ]; then
  rm -rf build/realcode/head && mkdir -p build/realcode/head
  git archive HEAD | tar -xf - -C build/realcode/head
  KSABS=$(realpath -m "$KS"); (cd build/realcode/head && go build -o "$KSABS" .)
  echo "HEAD $(git rev-parse --short HEAD) (a clean export; uncommitted work left out)" > build/realcode/local/source.txt
else
  go build -o "$KS" .
  echo "the working tree at $(git rev-parse --short HEAD) (uncommitted work included)" > build/realcode/local/source.txt
fi
$RC local -kernelscope "$KS" -j "$JOBS" -check "$CHECKS"
$RC report
echo "wrote docs/real-code.md"
