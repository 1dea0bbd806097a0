#!/usr/bin/env bash
# The browser test of issue 7: the tour in headless Chromium, live in Debian's
# classic Jupyter Notebook and as an nbconvert HTML export opened from disk.
#   bash scripts/browser_test.sh [NOTEBOOK.ipynb ...]   (default: tour.ipynb; as root or
#                                                        with sudo when apt-get must install)
# Installs what is missing (scripts/deps.sh: Debian's chromium, jupyter-notebook,
# python3-nbconvert, nodejs 18 + npm; npm: tests/browser's locked playwright-core —
# never a browser download), builds kernelscope, installs its kernelspec into a temporary
# JUPYTER_DATA_DIR, starts a notebook server on 127.0.0.1 (free port, fresh
# token, a temporary copy of notebooks/), runs tests/browser/tour.test.mjs and
# stops the server. Screenshots: build/screenshots/*.png.
# Prints "N passed, M failed"; exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
# Notebooks to drive (names in notebooks/); the tour by default.
NOTEBOOKS=("$@")
[ "${#NOTEBOOKS[@]}" -gt 0 ] || NOTEBOOKS=(tour.ipynb)
for nb in "${NOTEBOOKS[@]}"; do
  [ -f "notebooks/$nb" ] || { echo "no notebook notebooks/$nb" >&2; exit 2; }
done
ROOT="$(pwd)"
PY=/usr/bin/python3

. scripts/deps.sh
ks_install_deps
ks_npm_ci tests/browser playwright-core

echo "==> building kernelscope"
mkdir -p build/screenshots
go build -o build/kernelscope .

TMP="$(mktemp -d)"
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$SERVER_PID" 2>/dev/null || true
  fi
  rm -rf "$TMP"
}
trap cleanup EXIT INT TERM

export JUPYTER_DATA_DIR="$TMP/data" JUPYTER_CONFIG_DIR="$TMP/config" JUPYTER_RUNTIME_DIR="$TMP/runtime"
export IPYTHONDIR="$TMP/ipython"
mkdir -p "$JUPYTER_CONFIG_DIR" "$JUPYTER_RUNTIME_DIR"
./build/kernelscope install --user >/dev/null
mkdir -p "$TMP/nb"
cp notebooks/*.ipynb "$TMP/nb/"
PORT="$($PY -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
TOKEN="$($PY -c 'import secrets; print(secrets.token_hex(16))')"

echo "==> jupyter notebook on 127.0.0.1:$PORT"
/usr/bin/jupyter-notebook --no-browser --ip=127.0.0.1 --port="$PORT" --port-retries=0 \
  --NotebookApp.token="$TOKEN" --NotebookApp.password='' --notebook-dir="$TMP/nb" \
  --NotebookApp.open_browser=False $([ "$(id -u)" -eq 0 ] && echo --allow-root) >"$ROOT/build/notebook-server.log" 2>&1 &
SERVER_PID=$!
for i in $(seq 100); do
  if $PY - "$PORT" "$TOKEN" <<'EOF' 2>/dev/null; then break; fi
import sys, urllib.request
urllib.request.urlopen("http://127.0.0.1:%s/api/status?token=%s" % (sys.argv[1], sys.argv[2]), timeout=1).read()
EOF
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then echo "the notebook server exited:"; cat build/notebook-server.log; exit 1; fi
  sleep 0.2
  [ "$i" -lt 100 ] || { echo "the notebook server did not start"; cat build/notebook-server.log; exit 1; }
done

status=0
total_pass=0; total_fail=0
for nb in "${NOTEBOOKS[@]}"; do
  echo "==> chromium: $nb live, then its nbconvert export from disk"
  KS_URL="http://127.0.0.1:$PORT" KS_TOKEN="$TOKEN" KS_NBDIR="$TMP/nb" KS_SHOTS="$ROOT/build/screenshots" \
    KS_PYTHON="$PY" KS_CHROMIUM=/usr/bin/chromium KS_NOTEBOOK="$nb" \
    node tests/browser/tour.test.mjs 2>&1 | tee "$TMP/out.txt" || status=1
  line="$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$TMP/out.txt" | tail -1)"
  if [ -z "$line" ]; then status=1; total_fail=$((total_fail+1)); continue; fi
  total_pass=$((total_pass + ${line%% passed*})); f="${line#*, }"; total_fail=$((total_fail + ${f%% failed}))
done
echo "screenshots: $(ls "$ROOT"/build/screenshots/*.png 2>/dev/null | tr '\n' ' ')"
[ "$total_fail" -eq 0 ] || status=1
echo "$total_pass passed, $total_fail failed"
exit "$status"
