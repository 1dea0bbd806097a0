# Sourced by setup.sh, test.sh and the browser tests: installs what KernelScope and its tests
# need on Debian 12 when it is missing. Needs root (or sudo) for apt-get; does nothing when all
# is there. Every long step prints a line first, so a fresh machine is never silent for minutes.
#   the kernel:        clang-19 (CUDA -> PTX), libcub-dev libthrust-dev (CUB and Thrust headers)
#   Jupyter:           jupyter-client, nbclient, nbconvert, nbformat, notebook 6, console, ipykernel,
#                      jupyter_server 1.23 + jupyterlab_server 2.16 (serve the JupyterLab application test)
#   the browser tests: chromium (with its recommended fonts), nodejs 18 and npm (Debian's own)
KS_APT_PACKAGES="clang-19 libcub-dev libthrust-dev python3-jupyter-client jupyter-client python3-nbclient python3-nbconvert jupyter-nbconvert python3-nbformat jupyter-notebook jupyter-console python3-ipykernel python3-jupyter-server python3-jupyterlab-server chromium"
# Installed only when the command is missing (a node and npm from elsewhere, e.g. a newer
# Node.js whose package bundles npm, are used as they are: Debian's npm would conflict with it).
KS_APT_COMMANDS="node:nodejs npm:npm"

# ks_missing_packages [PKG...]: the packages of KS_APT_PACKAGES (and PKG...) not installed, and
# those of KS_APT_COMMANDS whose command is not on PATH.
ks_missing_packages() {
  local missing="" p c
  for p in $KS_APT_PACKAGES "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
  done
  for c in $KS_APT_COMMANDS; do
    command -v "${c%%:*}" >/dev/null 2>&1 || missing="$missing ${c#*:}"
  done
  echo "$missing"
}

# ks_install_deps [PKG...]: apt-get install what is missing; make sure go is on PATH.
ks_install_deps() {
  local missing
  missing=$(ks_missing_packages "$@")
  if [ -n "$missing" ]; then
    local sudo="" log n
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    log="$(mktemp)"
    echo "==> apt-get update"
    if ! $sudo apt-get update -qq >"$log" 2>&1; then cat "$log"; rm -f "$log"; return 1; fi
    # How many packages this pulls in, dependencies and recommends included.
    n=$(apt-get install -s $missing 2>/dev/null | grep -c '^Inst ' || true)
    echo "==> installing $n Debian packages (this takes a few minutes), for:$missing"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q $missing >"$log" 2>&1 &
    local pid=$! t=0 rc=0
    # A progress line every 30 s from apt's own log: packages downloaded, unpacked, set up so far.
    while kill -0 "$pid" 2>/dev/null; do
      sleep 1; t=$((t+1))
      if [ $((t % 30)) -eq 0 ]; then
        echo "    ${t}s: of $n packages $(grep -c '^Get:' "$log" || true) downloaded, $(grep -c '^Unpacking ' "$log" || true) unpacked, $(grep -c '^Setting up ' "$log" || true) set up"
      fi
    done
    wait "$pid" || rc=$?
    if [ "$rc" -ne 0 ]; then
      tail -40 "$log"; rm -f "$log"; echo "apt-get install failed (exit $rc)"; return 1
    fi
    rm -f "$log"
    echo "==> installed $n Debian packages"
  fi
  if ! command -v go >/dev/null 2>&1; then
    if [ -x /usr/local/go/bin/go ]; then export PATH="/usr/local/go/bin:$PATH"; else echo "Go 1.26 is required (https://go.dev/dl)"; return 1; fi
  fi
}

# ks_npm_ci DIR MARKER...: npm ci in DIR (locked versions, never a browser download) unless
# every DIR/node_modules/MARKER/package.json is there.
ks_npm_ci() {
  local dir="$1" m need=""
  shift
  for m in "$@"; do [ -f "$dir/node_modules/$m/package.json" ] || need=1; done
  [ -n "$need" ] || return 0
  echo "==> npm ci in $dir ($(node --version), npm $(npm --version); downloads from the npm registry, a minute or so)"
  (cd "$dir" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
}
