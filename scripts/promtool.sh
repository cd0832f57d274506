#!/usr/bin/env bash
# promtool (Debian's `prometheus` package) for validating ops/prometheus/*.yml.
#   scripts/promtool.sh install   install the package if promtool is missing (root or sudo)
#   scripts/promtool.sh check     promtool check rules + promtool test rules on the shipped files
set -euo pipefail
cd "$(dirname "$0")/.."
RULES=ops/prometheus/dev-stats.rules.yml
TESTS=ops/prometheus/dev-stats.rules.test.yml

as_root() {
  if [[ "$(id -u)" -eq 0 ]]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo "$@"
  else echo "need root (or sudo) to run: $*" >&2; exit 1
  fi
}

cmd_install() {
  command -v promtool >/dev/null 2>&1 && return 0
  echo "[promtool] installing Debian package prometheus" >&2
  as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 update -q >&2
  as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -q --no-install-recommends prometheus >&2
  command -v promtool >/dev/null 2>&1 || { echo "promtool still missing after installing prometheus" >&2; exit 1; }
}

cmd_check() {
  promtool check rules "$RULES"
  promtool test rules "$TESTS"
}

case "${1:-}" in
  install) cmd_install ;;
  check) cmd_install; cmd_check ;;
  *) echo "usage: $0 install|check" >&2; exit 2 ;;
esac
