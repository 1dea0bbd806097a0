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
echo "==> go test"
go test -count=1 -timeout 40m ./... 2>&1 | tee build/go-test.log
echo "==> fuzzing (bounded)"
for target in "./kernel FuzzDecode" "./kernel FuzzZMTPChecker" "./gpu/ptx FuzzParse" "./gpu/sass FuzzParse" "./gpu/arith FuzzDecodeEval" "./magics FuzzCellLanguage"; do
  set -- $target
  go test -run '^$' -fuzz "^$2\$" -fuzztime 15s "$1"
done
echo "==> the real kernel through Debian's jupyter_client"
KERNELSCOPE_BIN="$(pwd)/build/kernelscope" KERNELSCOPE_CELLS=tests/real_kernel_cells.json \
  /usr/bin/python3 tests/jupyter_client_test.py 2>build/jupyter-client.log | tee build/jupyter-client.out
echo "==> notebooks through the kernel"
JUPYTER_DATA_DIR="$(mktemp -d)"; export JUPYTER_DATA_DIR
./build/kernelscope install --user >/dev/null
rm -rf build/notebooks; mkdir -p build/notebooks
nb_fail=0
for nb in notebooks/*.ipynb; do
  if ! /usr/bin/python3 -m nbconvert --to notebook --execute "$nb" \
      --ExecutePreprocessor.kernel_name=kernelscope --ExecutePreprocessor.timeout=600 \
      --output-dir build/notebooks >/dev/null 2>build/nbconvert.err; then
    echo "FAIL: $nb"; cat build/nbconvert.err; nb_fail=$((nb_fail+1))
  fi
done
/usr/bin/python3 tests/check_notebooks.py build/notebooks/*.ipynb
echo "==> the numbers the course notebooks promise"
/usr/bin/python3 notebooks/make_courses.py --verify
echo "==> the browser test"
bash scripts/browser_test.sh
echo "==> the reports through JupyterLab's own renderer (@jupyterlab/rendermime)"
bash scripts/jupyterlab_test.sh build/notebooks/tour.ipynb
[ "$nb_fail" -eq 0 ] || { echo "kernelscope: 0 passed, $nb_fail failed"; exit 1; }
# Every stage above stops the script on failure; reaching here means all passed:
# vet, go test, fuzzing, the real client, notebooks, their checks, course numbers, browser,
# JupyterLab's renderer.
echo "kernelscope: 9 passed, 0 failed"
