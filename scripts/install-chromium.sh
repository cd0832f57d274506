#!/usr/bin/env bash
# Debian's headless Chromium for the soak test's screenshot of its report (test/integration/soak),
# installed the way the test servers are: before `npm test` (pretest), apt-get as root or with
# sudo. Exits at once when /usr/bin/chromium is there.
set -euo pipefail
export PATH="$PATH:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"
say() { printf '[install-chromium] %s\n' "$*" >&2; }
if [ -x /usr/bin/chromium ]; then say "/usr/bin/chromium is there"; exit 0; fi
command -v apt-get >/dev/null 2>&1 || { say "no /usr/bin/chromium and no apt-get: install Chromium so that /usr/bin/chromium runs it"; exit 1; }
as_root=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { say "need root to run: apt-get install -y chromium fonts-dejavu-core"; exit 1; }
  as_root=(sudo -n)
fi
say "installing chromium fonts-dejavu-core via apt-get"
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 update -q
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -q --no-install-recommends chromium fonts-dejavu-core
