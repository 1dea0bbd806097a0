# Sourced by setup.sh and test.sh: installs what KernelScope needs on Debian 12
# when it is missing. Needs root (or sudo) for apt-get; does nothing when all is there.
KS_APT_PACKAGES="clang-19 python3-jupyter-client jupyter-client python3-nbclient python3-nbconvert jupyter-nbconvert python3-nbformat jupyter-notebook jupyter-console python3-ipykernel"
ks_missing_packages() {
  local missing=""
  for p in $KS_APT_PACKAGES "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
  done
  echo "$missing"
}
ks_install_deps() {
  local missing
  missing=$(ks_missing_packages "$@")
  if [ -n "$missing" ]; then
    echo "==> installing Debian packages:$missing"
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
  fi
  if ! command -v go >/dev/null 2>&1; then
    if [ -x /usr/local/go/bin/go ]; then export PATH="/usr/local/go/bin:$PATH"; else echo "Go 1.26 is required (https://go.dev/dl)"; return 1; fi
  fi
}
