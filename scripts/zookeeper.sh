#!/usr/bin/env bash
# Local standalone ZooKeeper (Debian's `zookeeper` package) for the local ClickHouse cluster:
# Replicated* tables and ON CLUSTER DDL of ClickHouse 18.16 need it.
#
#   scripts/zookeeper.sh install   # apt-get install zookeeper if its jar is missing
#   scripts/zookeeper.sh start     # write own zoo.cfg, start in background, wait until it serves
#   scripts/zookeeper.sh stop      # stop the server started by `start` (by pid file)
#   scripts/zookeeper.sh status    # exit 0 iff the server serves (its `stat` reports a mode)
#
# Idempotent like scripts/clickhouse-server.sh. Listens on 127.0.0.1 only, no admin server.
# Environment:
#   ZOOKEEPER_PORT        client port on 127.0.0.1 (default 12181)
#   ZOOKEEPER_STATE_DIR   data/log/pid dir (default ${DEV_STATS_INFRA_DIR:-<repo>/.infra}/zookeeper)
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(cd "$SCRIPT_DIR/.." && pwd)"
PORT="${ZOOKEEPER_PORT:-12181}"
STATE_DIR="${ZOOKEEPER_STATE_DIR:-${DEV_STATS_INFRA_DIR:-$REPO_DIR/.infra}/zookeeper}"
JAR=/usr/share/java/zookeeper.jar

log() { printf '[zookeeper] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }
[[ "$PORT" =~ ^[0-9]+$ ]] || die "ZOOKEEPER_PORT is not a number: '$PORT'"

# Serving: `stat` reports a mode. `ruok` already says imok while the server still loads its
# snapshot and logs, and ClickHouse then fails its handshake and exits at start-up.
serving() {
  local answer
  answer="$( { exec 3<>"/dev/tcp/127.0.0.1/$PORT"; } 2>/dev/null && { printf stat >&3; timeout 2 cat <&3; } 2>/dev/null || true)"
  [[ "$answer" == *"Mode: "* ]]
}

abs_state_dir() {
  mkdir -p "$STATE_DIR/data"
  STATE_DIR="$(cd "$STATE_DIR" && pwd)"
  PID_FILE="$STATE_DIR/zookeeper.pid"
}

cmd_install() {
  [[ -f "$JAR" ]] && { log "already installed: $JAR"; return 0; }
  command -v apt-get >/dev/null 2>&1 || die "no $JAR and no apt-get; install ZooKeeper 3.8 manually"
  local sudo=(); [[ "$(id -u)" -eq 0 ]] || sudo=(sudo)
  log "installing zookeeper via apt-get"
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 update -q \
    && "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -q --no-install-recommends zookeeper \
    || die "apt-get install zookeeper failed"
  [[ -f "$JAR" ]] || die "apt-get finished but $JAR is missing"
}

cmd_start() {
  abs_state_dir
  if serving; then log "already running on 127.0.0.1:$PORT"; return 0; fi
  command -v java >/dev/null 2>&1 || die "java not found"
  [[ -f "$JAR" ]] || die "no $JAR; run: $0 install"
  # Short ticks: sessions of a stopped ClickHouse replica expire in seconds, not minutes.
  cat >"$STATE_DIR/zoo.cfg" <<EOF
tickTime=500
initLimit=10
syncLimit=5
dataDir=$STATE_DIR/data
clientPort=$PORT
clientPortAddress=127.0.0.1
admin.enableServer=false
maxClientCnxns=200
autopurge.purgeInterval=1
4lw.commands.whitelist=ruok,stat
EOF
  log "starting (state: $STATE_DIR, 127.0.0.1:$PORT)"
  local -a pre=(); command -v setsid >/dev/null 2>&1 && pre=(setsid)
  (cd "$STATE_DIR" && exec "${pre[@]}" nohup java -Xms64m -Xmx256m -cp "/etc/zookeeper/conf:$JAR" \
      org.apache.zookeeper.server.ZooKeeperServerMain "$STATE_DIR/zoo.cfg" </dev/null >"$STATE_DIR/zookeeper.out" 2>&1) &
  local pid=$!
  echo "$pid" >"$PID_FILE"
  for ((i = 0; i < 120; i++)); do
    if serving; then log "ready on 127.0.0.1:$PORT (pid $pid)"; return 0; fi
    kill -0 "$pid" 2>/dev/null || { tail -n 30 "$STATE_DIR/zookeeper.out" >&2; die "exited during start-up"; }
    sleep 0.25
  done
  tail -n 30 "$STATE_DIR/zookeeper.out" >&2
  die "no imok on 127.0.0.1:$PORT within 30 s (pid $pid left running)"
}

cmd_stop() {
  abs_state_dir
  local pid; pid="$(tr -dc '0-9' <"$PID_FILE" 2>/dev/null || true)"
  if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q ZooKeeperServerMain; then
    kill -TERM "$pid"
    for ((i = 0; i < 80; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
    kill -KILL "$pid" 2>/dev/null || true
    log "stopped pid $pid"
  else
    log "not running (from $STATE_DIR)"
  fi
  rm -f "$PID_FILE"
}

case "${1:-}" in
  install) cmd_install ;;
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) if serving; then log "running on 127.0.0.1:$PORT"; else log "not running"; exit 1; fi ;;
  *) echo "usage: $0 {install|start|stop|status}" >&2; exit 2 ;;
esac
