#!/usr/bin/env bash
# The reports in JupyterLab 4 / Notebook 7's own output renderer: a page built
# from @jupyterlab/rendermime 4.x (RenderMimeRegistry + standardRendererFactories
# + apputils Sanitizer, outputs attached as Lumino widgets) renders the stored
# outputs of a notebook, trusted and untrusted, in headless Debian Chromium,
# and tests/jupyterlab/jupyterlab.test.mjs checks the sections and drives the
# trace widget. JupyterLab itself is not installed: this is its renderer.
#   bash scripts/jupyterlab_test.sh [notebooks/NAME.ipynb]   (default: notebooks/tour.ipynb)
# Installs what is missing (scripts/deps.sh: Debian's chromium, nodejs 18, npm; npm:
# tests/jupyterlab's locked packages via npm ci — never a browser download), bundles the page with
# esbuild, runs the test (it serves the page on 127.0.0.1 itself and stops that
# server when done). Screenshots: build/screenshots/jupyterlab-*.png.
# Prints "N passed, M failed"; exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
NOTEBOOK="${1:-notebooks/tour.ipynb}"
[ -f "$NOTEBOOK" ] || { echo "no notebook $NOTEBOOK" >&2; exit 2; }

. scripts/deps.sh
ks_install_deps
ks_npm_ci tests/jupyterlab @jupyterlab/rendermime playwright-core esbuild

echo "==> esbuild: tests/jupyterlab/dist"
node tests/jupyterlab/build.mjs
mkdir -p build/screenshots

echo "==> chromium: $NOTEBOOK through @jupyterlab/rendermime"
OUT="$(mktemp)"
TEST_PID=""
cleanup() {
  # The test owns its HTTP server and browser; make sure it is gone.
  if [ -n "$TEST_PID" ] && kill -0 "$TEST_PID" 2>/dev/null; then
    kill "$TEST_PID" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$TEST_PID" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$TEST_PID" 2>/dev/null || true
  fi
  rm -f "$OUT"
}
trap cleanup EXIT INT TERM
status=0
KS_NOTEBOOK="$NOTEBOOK" KS_SHOTS=build/screenshots KS_CHROMIUM=/usr/bin/chromium \
  timeout 300 node tests/jupyterlab/jupyterlab.test.mjs >"$OUT" 2>&1 &
TEST_PID=$!
wait "$TEST_PID" || status=$?
TEST_PID=""
cat "$OUT"
line="$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$OUT" | tail -1 || true)"
if [ -z "$line" ]; then
  echo "the test printed no result (exit $status)"
  echo "0 passed, 1 failed"
  exit 1
fi
case "$line" in *" 0 failed") ;; *) status=1 ;; esac
exit "$status"
