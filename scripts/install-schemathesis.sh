#!/usr/bin/env bash
# Schemathesis (the property-based API tester) for the read API's contract test
# (test/integration/read-api/schemathesis.test.ts): a Python venv from PyPI, made once in
# ~/.cache/dev-stats and reused. Prints the path of `st`. Needs python3 with venv (Debian:
# python3-venv, installed here when missing: root or sudo).
set -euo pipefail
version=4.32.5
venv="${DEV_STATS_CACHE_DIR:-$HOME/.cache/dev-stats}/schemathesis-$version"
st="$venv/bin/st"
if [ -x "$st" ] && "$st" --version >/dev/null 2>&1; then echo "$st"; exit 0; fi
if ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
  sudo_=""; [ "$(id -u)" -ne 0 ] && sudo_="sudo -n"
  # a machine whose package lists were never fetched knows no python3-venv yet
  $sudo_ env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 update -q >&2
  $sudo_ env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -q --no-install-recommends python3-venv >&2
fi
rm -rf "$venv.tmp"
python3 -m venv "$venv.tmp" >&2
"$venv.tmp/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$version" >&2
rm -rf "$venv" && mv "$venv.tmp" "$venv"
# a venv's scripts name their interpreter by path: moved, they are rewritten to the new place
grep -lI "$venv.tmp" "$venv"/bin/* | xargs -r sed -i "s|$venv.tmp|$venv|g"
"$st" --version >&2
echo "$st"
