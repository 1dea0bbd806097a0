#!/usr/bin/env bash
# Runs every test: go vet, the Go tests (golden corpus, protocol, the real
# Jupyter client against the installed kernel), bounded fuzzing, and the
# notebooks executed through the kernel with nbconvert.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
ks_install_deps
export KS_REQUIRE_TOOLS=1   # tests that need clang or jupyter fail instead of skipping
echo "==> go vet"
go vet ./...
echo "==> building kernelscope"
mkdir -p build
go build -o build/kernelscope .
export KERNELSCOPE_BIN="$(pwd)/build/kernelscope"
echo "==> go test"
go test -count=1 -timeout 40m ./... 2>&1 | tee build/go-test.log
echo "==> fuzzing (bounded)"
for target in "./kernel FuzzDecode" "./gpu/ptx FuzzParse"; do
  set -- $target
  if go test -list "^$2\$" "$1" 2>/dev/null | grep -q "^$2\$"; then
    go test -run '^$' -fuzz "^$2\$" -fuzztime 20s "$1"
  fi
done
echo "==> notebooks through the kernel"
JUPYTER_DATA_DIR="$(mktemp -d)"; export JUPYTER_DATA_DIR
./build/kernelscope install --user >/dev/null
nb_ok=0; nb_fail=0
for nb in notebooks/*.ipynb; do
  if /usr/bin/python3 -m jupyter nbconvert --to html --execute "$nb" \
      --ExecutePreprocessor.kernel_name=kernelscope --ExecutePreprocessor.timeout=600 \
      --output-dir build/notebooks >/dev/null 2>build/nbconvert.err; then
    nb_ok=$((nb_ok+1))
  else
    echo "FAIL: $nb"; cat build/nbconvert.err; nb_fail=$((nb_fail+1))
  fi
done
go_pass=$(grep -c '^ok ' build/go-test.log || true)
echo "go packages: $go_pass passed; notebooks: $nb_ok passed, $nb_fail failed"
[ "$nb_fail" -eq 0 ]
