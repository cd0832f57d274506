#!/usr/bin/env bash
# Shopify's Toxiproxy (a TCP proxy that injects network faults) for the soak's network faults and
# the wire-fault tests. Built from the Go module proxy into the cache; every subcommand is idempotent.
#
#   scripts/toxiproxy.sh install   # go install server + cli v2.5.0 into the cache (skips when there)
#   scripts/toxiproxy.sh start     # install + start the server, wait until its API answers
#   scripts/toxiproxy.sh status    # exit 0 iff the API answers
#   scripts/toxiproxy.sh stop      # SIGTERM the server started from this state dir
#   scripts/toxiproxy.sh path      # print the server binary's path
#
# Environment (all optional):
#   TOXIPROXY_PORT         API port                                (default 18474)
#   DEV_STATS_CACHE_DIR    binary cache root                       (default ~/.cache/dev-stats)
#   TOXIPROXY_STATE_DIR    pid and log                             (default <repo>/.infra/toxiproxy)
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(cd "$SCRIPT_DIR/.." && pwd)"
VERSION="2.5.0"
HOST="127.0.0.1"
PORT="${TOXIPROXY_PORT:-18474}"
CACHE_ROOT="${DEV_STATS_CACHE_DIR:-${HOME:-/root}/.cache/dev-stats}"
BIN_DIR="$CACHE_ROOT/toxiproxy-$VERSION"
SERVER="$BIN_DIR/toxiproxy-server"
STATE_DIR="${TOXIPROXY_STATE_DIR:-$REPO_DIR/.infra/toxiproxy}"
PID_FILE="$STATE_DIR/toxiproxy-$PORT.pid"
LOG_FILE="$STATE_DIR/toxiproxy-$PORT.log"

log() { printf '[toxiproxy] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

cmd_install() {
  if [[ -x "$SERVER" && -x "$BIN_DIR/toxiproxy-cli" ]]; then log "Toxiproxy $VERSION already in $BIN_DIR"; return 0; fi
  local go
  go="$(command -v go || true)"
  [[ -n "$go" ]] || { [[ -x /usr/local/go/bin/go ]] && go=/usr/local/go/bin/go; }
  [[ -n "$go" ]] || die "go not found (Toxiproxy is built from the Go module proxy; install Go 1.22+)"
  log "building Toxiproxy $VERSION with $($go version | cut -d' ' -f3) into $BIN_DIR"
  local tmp="$BIN_DIR.tmp.$$"
  rm -rf "$tmp" && mkdir -p "$tmp"
  # Built into a temp dir and swapped in, so an interrupted build never looks complete.
  GOBIN="$tmp" GOFLAGS=-mod=mod "$go" install "github.com/Shopify/toxiproxy/v2/cmd/server@v$VERSION" "github.com/Shopify/toxiproxy/v2/cmd/cli@v$VERSION" \
    || { rm -rf "$tmp"; die "go install failed"; }
  mv "$tmp/server" "$tmp/toxiproxy-server" && mv "$tmp/cli" "$tmp/toxiproxy-cli"
  rm -rf "$BIN_DIR" && mv "$tmp" "$BIN_DIR"
}

answers() { curl -fsS -m 2 "http://$HOST:$PORT/version" >/dev/null 2>&1; }

server_pid() {
  [[ -f "$PID_FILE" ]] || return 1
  local pid
  pid="$(tr -dc '0-9' <"$PID_FILE")"
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q toxiproxy-server && echo "$pid"
}

cmd_start() {
  cmd_install
  if answers; then log "already answering on $HOST:$PORT"; return 0; fi
  mkdir -p "$STATE_DIR"
  setsid bash -c 'echo $$ >"$0"; exec "$@"' "$PID_FILE" "$SERVER" -host "$HOST" -port "$PORT" </dev/null >>"$LOG_FILE" 2>&1 &
  for _ in $(seq 100); do
    if answers; then log "ready on $HOST:$PORT (pid $(cat "$PID_FILE"))"; return 0; fi
    sleep 0.1
  done
  tail -n 20 "$LOG_FILE" >&2 || true
  die "Toxiproxy did not answer on $HOST:$PORT within 10 s"
}

cmd_stop() {
  local pid
  if ! pid="$(server_pid)"; then rm -f "$PID_FILE"; log "not running"; return 0; fi
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
  rm -f "$PID_FILE"
  log "stopped"
}

case "${1:-}" in
  install) cmd_install ;;
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) answers ;;
  path) cmd_install && echo "$SERVER" ;;
  *) sed -n '2,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
