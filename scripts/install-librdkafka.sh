#!/usr/bin/env bash
# Makes the optional librdkafka client (@confluentinc/kafka-javascript) load: `npm ci` leaves it
# out where its native build fails (no compiler, no -dev libraries). Runs before `npm test`
# (pretest) and is what the start-up error of DEV_STATS_BROKER=confluent points to.
# Exits at once when the client already loads; otherwise apt-installs the missing Debian build
# packages (root or sudo) and builds it against them with CKJS_LINKING=dynamic.
set -euo pipefail
cd "$(dirname "$0")/.."
# apt puts compilers in /usr/bin: keep the standard directories on PATH even under a narrow one
export PATH="$PATH:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"
pkg=@confluentinc/kafka-javascript
say() { printf '[install-librdkafka] %s\n' "$*" >&2; }
loads() { node -e "require('$pkg')" >/dev/null 2>&1; }

if loads; then say "$pkg loads"; exit 0; fi

build_packages=(g++ make python3 zlib1g-dev libssl-dev libzstd-dev liblz4-dev libsasl2-dev libcurl4-openssl-dev)
missing=()
for p in "${build_packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  as_root=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { say "need root to run: apt-get install -y ${missing[*]}"; exit 1; }
    as_root=(sudo -n)
  fi
  say "installing Debian build packages: ${missing[*]}"
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

export CKJS_LINKING=dynamic
# node-gyp needs the headers of the node that runs (a build against another version's does not
# load); without nodedir it would try to download them. The running node's own come first.
if [ -z "${npm_config_nodedir:-}" ]; then
  prefix=$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")
  if [ -f "$prefix/include/node/node.h" ]; then export npm_config_nodedir="$prefix"; fi
fi
version=$(node -p "require('./package-lock.json').packages['node_modules/$pkg'].version")
t0=$SECONDS
if [ -f "node_modules/$pkg/package.json" ]; then
  say "rebuilding $pkg@$version against Debian's libraries (about 2 minutes on 2 cores)"
  npm rebuild "$pkg" --foreground-scripts=false
else
  say "installing $pkg@$version, built against Debian's libraries (about 2 minutes on 2 cores)"
  npm install --no-save --no-audit --no-fund "$pkg@$version"
fi
loads || { say "$pkg still does not load:"; node -e "require('$pkg')"; exit 1; }
say "$pkg built and loads ($((SECONDS - t0)) s)"
