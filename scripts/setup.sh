#!/usr/bin/env bash
# The main job: install what is missing, build kernelscope, install its
# kernelspec, and execute the tour notebook through the kernel into HTML.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
ks_install_deps
echo "==> building kernelscope (the first build downloads its Go modules)"
mkdir -p build
go build -o build/kernelscope .
echo "==> installing the kernelspec (and a copy of the binary beside it)"
./build/kernelscope install --user
echo "==> executing notebooks/tour.ipynb through the KernelScope kernel (about a minute)"
if ! /usr/bin/python3 -m nbconvert --to html --execute notebooks/tour.ipynb \
    --ExecutePreprocessor.kernel_name=kernelscope --ExecutePreprocessor.timeout=600 \
    --output-dir build --output tour >build/tour.log 2>&1; then
  cat build/tour.log
  exit 1
fi
echo "==> done: $(pwd)/build/tour.html"
