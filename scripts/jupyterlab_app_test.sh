#!/usr/bin/env bash
# The tour in the real JupyterLab application: JupyterLab 3.6's shell and core
# extensions built from npm (tests/jupyterlab-app: esbuild, our own entry point),
# served by Debian's jupyterlab_server 2.16 (LabServerApp) on jupyter_server 1.23
# with the kernelscope kernel installed, driven in headless Debian Chromium:
# open the notebook, clear it, run all cells through JupyterLab's own command,
# compare every cell's outputs with the notebook's, step the trace widget.
# JupyterLab 4 / Notebook 7 need jupyter_server 2, which Debian 12 does not have.
#   bash scripts/jupyterlab_app_test.sh [NOTEBOOK]   (default: notebooks/tour.ipynb)
# Installs what is missing (scripts/deps.sh; npm ci of tests/jupyterlab-app's locked
# packages, never a browser download); builds build/kernelscope when it is not there.
# Screenshots: build/screenshots/jupyterlab-app*.png. Prints "N passed, M failed".
set -euo pipefail
cd "$(dirname "$0")/.."
NOTEBOOK="${1:-notebooks/tour.ipynb}"
[ -f "$NOTEBOOK" ] || { echo "no notebook $NOTEBOOK" >&2; exit 2; }

. scripts/deps.sh
ks_install_deps
ks_npm_ci tests/jupyterlab-app @jupyterlab/application @jupyterlab/notebook-extension playwright-core esbuild

[ -x build/kernelscope ] || { mkdir -p build; go build -o build/kernelscope .; }
JUPYTER_DATA_DIR="$(mktemp -d)"; export JUPYTER_DATA_DIR
./build/kernelscope install --user >/dev/null

echo "==> esbuild: tests/jupyterlab-app/build"
node tests/jupyterlab-app/build.mjs
mkdir -p build/screenshots

echo "==> chromium: $NOTEBOOK in JupyterLab 3.6 (jupyterlab_server $(/usr/bin/python3 -c 'import jupyterlab_server as j; print(j.__version__)'), jupyter_server $(/usr/bin/python3 -c 'import jupyter_server as j; print(j.__version__)'))"
status=0
KS_NOTEBOOK="$NOTEBOOK" KS_SHOTS=build/screenshots KS_CHROMIUM=/usr/bin/chromium KS_PYTHON=/usr/bin/python3 \
  timeout 600 node tests/jupyterlab-app/lab.test.mjs >build/jupyterlab-app.out 2>&1 || status=$?
cat build/jupyterlab-app.out
rm -rf "$JUPYTER_DATA_DIR"
line="$(grep -E '^[0-9]+ passed, [0-9]+ failed$' build/jupyterlab-app.out | tail -1 || true)"
if [ -z "$line" ]; then
  echo "the test printed no result (exit $status)"
  echo "0 passed, 1 failed"
  exit 1
fi
case "$line" in *" 0 failed") ;; *) status=1 ;; esac
exit "$status"
