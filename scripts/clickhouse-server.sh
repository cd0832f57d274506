#!/usr/bin/env bash
# Local ClickHouse server for development and integration tests.
#
#   scripts/clickhouse-server.sh install   # apt-get install clickhouse-server/-client if no binary
#   scripts/clickhouse-server.sh start     # write own config, start in background, wait for /ping
#   scripts/clickhouse-server.sh stop      # stop the server started by `start` (by pid file)
#   scripts/clickhouse-server.sh status    # exit 0 iff GET /ping answers "Ok."
#
# Idempotent: `install` skips what is installed, `start` does nothing if the port already
# answers, `stop` does nothing if nothing runs. Works from any cwd and from a fresh clone.
#
# Environment:
#   DEV_STATS_INFRA_DIR    infra root (default <repo>/.infra); state lives in $DEV_STATS_INFRA_DIR/clickhouse
#   CLICKHOUSE_STATE_DIR   overrides the state dir itself
#   CLICKHOUSE_HTTP_PORT   HTTP port on 127.0.0.1 (default 18123)
#   CLICKHOUSE_TCP_PORT    native port on 127.0.0.1 (default 19000)
#   CLICKHOUSE_START_TIMEOUT  seconds to wait for /ping (default 60)
#   CLICKHOUSE_QUERY_LOG   1: every query in system.query_log (where the server's time goes; off by default)
# Cluster member (all optional; scripts/clickhouse-cluster.sh sets them):
#   CLICKHOUSE_INTERSERVER_PORT  replication port on 127.0.0.1 (unset: interserver disabled)
#   CLICKHOUSE_CLUSTER           cluster name in <remote_servers>
#   CLICKHOUSE_CLUSTER_SHARDS    TCP ports of the members on 127.0.0.1: shards split by ';',
#                                replicas of a shard by ',' (e.g. "19201,19202")
#   CLICKHOUSE_ZOOKEEPER         host:port of ZooKeeper (e.g. 127.0.0.1:12181)
#   CLICKHOUSE_SHARD / CLICKHOUSE_REPLICA  this server's {shard} and {replica} macros
# An HTTPS port and a user with a password (unset by default; scripts/secure-infra.sh sets them):
#   CLICKHOUSE_HTTPS_PORT  HTTPS port on 127.0.0.1, with CLICKHOUSE_TLS_DIR/server.crt + server.key
#   CLICKHOUSE_USER_NAME / CLICKHOUSE_USER_PASSWORD_FILE  an extra user (password stored as sha256)
#
# Targets the Debian package (ClickHouse 18.16, binary /usr/sbin/clickhouse-server); falls back
# to an upstream single binary (`clickhouse server`). Runs fine as root. Interserver port is not
# configured unless CLICKHOUSE_INTERSERVER_PORT is set (a cluster member).
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(cd "$SCRIPT_DIR/.." && pwd)"

HTTP_PORT="${CLICKHOUSE_HTTP_PORT:-18123}"
TCP_PORT="${CLICKHOUSE_TCP_PORT:-19000}"
START_TIMEOUT="${CLICKHOUSE_START_TIMEOUT:-60}"
STATE_DIR="${CLICKHOUSE_STATE_DIR:-${DEV_STATS_INFRA_DIR:-$REPO_DIR/.infra}/clickhouse}"

log() { printf '[clickhouse-server] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

for p in "$HTTP_PORT" "$TCP_PORT" "$START_TIMEOUT"; do
  [[ "$p" =~ ^[0-9]+$ ]] || die "not a number: '$p' (CLICKHOUSE_HTTP_PORT / CLICKHOUSE_TCP_PORT / CLICKHOUSE_START_TIMEOUT)"
done
[[ "$HTTP_PORT" != "$TCP_PORT" ]] || die "CLICKHOUSE_HTTP_PORT and CLICKHOUSE_TCP_PORT must differ"

# Absolute state paths (DEV_STATS_INFRA_DIR may be relative to the caller's cwd).
abs_state_dir() {
  mkdir -p "$STATE_DIR"
  STATE_DIR="$(cd "$STATE_DIR" && pwd)"
  PID_FILE="$STATE_DIR/clickhouse-server.pid"
  LOG_DIR="$STATE_DIR/log"
}

# ---------------------------------------------------------------- binaries

# Prints the command (one or two words) that runs the server, or nothing.
server_cmd() {
  local c
  for c in clickhouse-server /usr/sbin/clickhouse-server /usr/bin/clickhouse-server; do
    if command -v "$c" >/dev/null 2>&1; then printf '%s\n' "$(command -v "$c")"; return 0; fi
  done
  for c in clickhouse /usr/bin/clickhouse /usr/local/bin/clickhouse; do
    if command -v "$c" >/dev/null 2>&1; then printf '%s server\n' "$(command -v "$c")"; return 0; fi
  done
  return 0
}

as_root() {
  if [[ "$(id -u)" -eq 0 ]]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo "$@"
  else die "need root (or sudo) to run: $*"
  fi
}

# apt-get with waiting for a lock held by another apt/dpkg (up to ~15 min): DPkg::Lock::Timeout
# covers the dpkg lock; `update`'s lists lock is retried here on "Could not get lock".
apt_get() {
  local err attempt
  err="$(mktemp)"
  for ((attempt = 1; attempt <= 90; attempt++)); do
    if as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 "$@" 2>"$err"; then
      cat "$err" >&2; rm -f "$err"; return 0
    fi
    cat "$err" >&2
    if grep -qiE 'could not get lock|unable to lock|is another process using it' "$err"; then
      log "apt is locked by another process; retrying in 10 s ($attempt/90)"
      sleep 10
      continue
    fi
    rm -f "$err"; return 1
  done
  rm -f "$err"; return 1
}

cmd_install() {
  local cmd; cmd="$(server_cmd)"
  if [[ -n "$cmd" ]]; then
    log "already installed: $cmd"
    return 0
  fi
  command -v apt-get >/dev/null 2>&1 || die "no clickhouse binary and no apt-get; install ClickHouse manually"
  log "installing clickhouse-server clickhouse-client via apt-get"
  apt_get update || die "apt-get update failed"
  apt_get install -y --no-install-recommends clickhouse-server clickhouse-client tzdata \
    || die "apt-get install clickhouse-server clickhouse-client failed"
  cmd="$(server_cmd)"
  [[ -n "$cmd" ]] || die "apt-get finished but no clickhouse-server binary was found"
  log "installed: $cmd"
}

# ---------------------------------------------------------------- ping

# Succeeds iff GET http://127.0.0.1:$HTTP_PORT/ping returns "Ok.".
ping_ok() {
  local body=""
  if command -v curl >/dev/null 2>&1; then
    body="$(curl -s --max-time 2 "http://127.0.0.1:$HTTP_PORT/ping" 2>/dev/null || true)"
  else
    # No curl on a minimal machine: speak HTTP/1.0 over bash's /dev/tcp.
    body="$(
      { exec 3<>"/dev/tcp/127.0.0.1/$HTTP_PORT"; } 2>/dev/null || exit 0
      printf 'GET /ping HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3
      timeout 2 cat <&3 2>/dev/null | tail -n 1 || true
    )" || true
  fi
  [[ "${body//[$'\r\n']/}" == "Ok." ]]
}

# ---------------------------------------------------------------- pid helpers

read_pid() {
  [[ -f "$PID_FILE" ]] || return 1
  local pid
  pid="$(tr -dc '0-9' <"$PID_FILE")"
  [[ -n "$pid" ]] || return 1
  printf '%s\n' "$pid"
}

# True iff $1 is a live clickhouse process (guards against recycled pids).
is_clickhouse_pid() {
  local pid="$1"
  kill -0 "$pid" 2>/dev/null || return 1
  if [[ -r "/proc/$pid/cmdline" ]]; then
    tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q clickhouse || return 1
  fi
  return 0
}

print_log_tail() {
  local f
  for f in "$LOG_DIR/stdout.log" "$LOG_DIR/clickhouse-server.err.log" "$LOG_DIR/clickhouse-server.log"; do
    if [[ -s "$f" ]]; then
      log "---- tail -n 40 $f"
      tail -n 40 "$f" >&2 || true
    fi
  done
}

# ---------------------------------------------------------------- config

xml_escape() {
  local s="$1"
  s="${s//&/&amp;}"; s="${s//</&lt;}"; s="${s//>/&gt;}"
  printf '%s' "$s"
}

# The cluster sections of config.xml; nothing when CLICKHOUSE_CLUSTER is unset.
cluster_config() {
  [[ -n "${CLICKHOUSE_CLUSTER:-}" ]] || return 0
  [[ "$CLICKHOUSE_CLUSTER" =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || die "CLICKHOUSE_CLUSTER must be an identifier"
  [[ "${CLICKHOUSE_INTERSERVER_PORT:-}" =~ ^[0-9]+$ ]] || die "a cluster member needs CLICKHOUSE_INTERSERVER_PORT"
  [[ "${CLICKHOUSE_CLUSTER_SHARDS:-}" =~ ^[0-9]+(,[0-9]+)*(\;[0-9]+(,[0-9]+)*)*$ ]] || die "CLICKHOUSE_CLUSTER_SHARDS must look like 19201,19202;19203,19204"
  [[ "${CLICKHOUSE_ZOOKEEPER:-}" =~ ^[A-Za-z0-9.-]+:[0-9]+$ ]] || die "CLICKHOUSE_ZOOKEEPER must be host:port"
  local shard port zk_host="${CLICKHOUSE_ZOOKEEPER%:*}" zk_port="${CLICKHOUSE_ZOOKEEPER##*:}"
  local -a shards ports
  printf '    <interserver_http_port>%s</interserver_http_port>\n' "$CLICKHOUSE_INTERSERVER_PORT"
  printf '    <interserver_http_host>127.0.0.1</interserver_http_host>\n'
  printf '    <remote_servers>\n        <%s>\n' "$CLICKHOUSE_CLUSTER"
  IFS=';' read -r -a shards <<<"$CLICKHOUSE_CLUSTER_SHARDS"
  for shard in "${shards[@]}"; do
    # internal_replication: a Distributed insert writes one replica, the Replicated table copies it.
    printf '            <shard>\n                <internal_replication>true</internal_replication>\n'
    IFS=',' read -r -a ports <<<"$shard"
    for port in "${ports[@]}"; do
      printf '                <replica><host>127.0.0.1</host><port>%s</port></replica>\n' "$port"
    done
    printf '            </shard>\n'
  done
  printf '        </%s>\n    </remote_servers>\n' "$CLICKHOUSE_CLUSTER"
  printf '    <zookeeper>\n        <node><host>%s</host><port>%s</port></node>\n        <session_timeout_ms>6000</session_timeout_ms>\n    </zookeeper>\n' "$zk_host" "$zk_port"
  printf '    <distributed_ddl><path>/clickhouse/task_queue/ddl</path></distributed_ddl>\n'
  printf '    <macros><shard>%s</shard><replica>%s</replica></macros>\n' "${CLICKHOUSE_SHARD:-01}" "${CLICKHOUSE_REPLICA:-r$TCP_PORT}"
}

# system.query_log on (CLICKHOUSE_QUERY_LOG=1): its table in config.xml, `profile` its setting in users.xml.
query_log_config() {
  [[ "${CLICKHOUSE_QUERY_LOG:-}" == 1 ]] || return 0
  if [[ "${1:-}" == profile ]]; then printf '            <log_queries>1</log_queries>\n'; return; fi
  printf '    <query_log><database>system</database><table>query_log</table><flush_interval_milliseconds>7500</flush_interval_milliseconds></query_log>\n'
}

https_config() {
  [[ -n "${CLICKHOUSE_HTTPS_PORT:-}" ]] || return 0
  local t; t="$(xml_escape "$CLICKHOUSE_TLS_DIR")"
  cat <<EOF
    <https_port>$CLICKHOUSE_HTTPS_PORT</https_port>
    <openSSL>
        <server>
            <certificateFile>$t/server.crt</certificateFile>
            <privateKeyFile>$t/server.key</privateKeyFile>
            <verificationMode>none</verificationMode>
            <loadDefaultCAFile>false</loadDefaultCAFile>
            <cacheSessions>true</cacheSessions>
            <disableProtocols>sslv2,sslv3</disableProtocols>
            <preferServerCiphers>true</preferServerCiphers>
        </server>
    </openSSL>
EOF
}

extra_user() {
  [[ -n "${CLICKHOUSE_USER_NAME:-}" ]] || return 0
  [[ "$CLICKHOUSE_USER_NAME" =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || die "CLICKHOUSE_USER_NAME must be an identifier"
  local hash; hash="$(tr -d '\n' <"$CLICKHOUSE_USER_PASSWORD_FILE" | sha256sum | cut -d' ' -f1)"
  cat <<EOF
        <$CLICKHOUSE_USER_NAME>
            <password_sha256_hex>$hash</password_sha256_hex>
            <networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
            <profile>default</profile>
            <quota>default</quota>
        </$CLICKHOUSE_USER_NAME>
EOF
}

write_config() {
  mkdir -p "$STATE_DIR/data" "$STATE_DIR/tmp" "$STATE_DIR/user_files" "$STATE_DIR/format_schemas" "$LOG_DIR"
  local d; d="$(xml_escape "$STATE_DIR")"
  # Keys 18.16 requires: mark_cache_size (startup fails with "Not found: mark_cache_size"
  # without it), path, tmp_path, users_config. Interserver/cluster sections: cluster_config.
  cat >"$STATE_DIR/config.xml.new" <<EOF
<?xml version="1.0"?>
<!-- Generated by scripts/clickhouse-server.sh; rewritten on every start. -->
<yandex>
    <logger>
        <level>information</level>
        <log>$d/log/clickhouse-server.log</log>
        <errorlog>$d/log/clickhouse-server.err.log</errorlog>
        <size>50M</size>
        <count>3</count>
    </logger>
    <listen_host>127.0.0.1</listen_host>
    <http_port>$HTTP_PORT</http_port>
    <tcp_port>$TCP_PORT</tcp_port>
$(https_config)
    <max_connections>1024</max_connections>
    <keep_alive_timeout>3</keep_alive_timeout>
    <max_concurrent_queries>100</max_concurrent_queries>
    <uncompressed_cache_size>268435456</uncompressed_cache_size>
    <mark_cache_size>268435456</mark_cache_size>
    <path>$d/data/</path>
    <tmp_path>$d/tmp/</tmp_path>
    <user_files_path>$d/user_files/</user_files_path>
    <format_schema_path>$d/format_schemas/</format_schema_path>
    <users_config>users.xml</users_config>
    <default_profile>default</default_profile>
    <default_database>default</default_database>
    <timezone>UTC</timezone>
    <mlock_executable>false</mlock_executable>
    <builtin_dictionaries_reload_interval>3600</builtin_dictionaries_reload_interval>
    <max_session_timeout>3600</max_session_timeout>
    <default_session_timeout>60</default_session_timeout>
$(cluster_config)
$(query_log_config)
</yandex>
EOF
  cat >"$STATE_DIR/users.xml.new" <<EOF
<?xml version="1.0"?>
<!-- Generated by scripts/clickhouse-server.sh; rewritten on every start. -->
<yandex>
    <profiles>
        <default>
            <max_memory_usage>4000000000</max_memory_usage>
            <load_balancing>random</load_balancing>
$(query_log_config profile)
        </default>
    </profiles>
    <users>
        <default>
            <password></password>
            <networks>
                <ip>127.0.0.1</ip>
                <ip>::1</ip>
            </networks>
            <profile>default</profile>
            <quota>default</quota>
        </default>
$(extra_user)
    </users>
    <quotas>
        <default>
            <interval>
                <duration>3600</duration>
                <queries>0</queries>
                <errors>0</errors>
                <result_rows>0</result_rows>
                <read_rows>0</read_rows>
                <execution_time>0</execution_time>
            </interval>
        </default>
    </quotas>
</yandex>
EOF
  mv -f "$STATE_DIR/config.xml.new" "$STATE_DIR/config.xml"
  mv -f "$STATE_DIR/users.xml.new" "$STATE_DIR/users.xml"
}

# ---------------------------------------------------------------- commands

# Serialise start/stop of the same state dir (e.g. CI and a test setup racing).
take_lock() {
  if command -v flock >/dev/null 2>&1; then
    exec 9>"$STATE_DIR/.lock"
    flock -w 120 9 || die "could not lock $STATE_DIR/.lock within 120 s"
  fi
}

cmd_start() {
  abs_state_dir
  take_lock
  if ping_ok; then
    log "already running on 127.0.0.1:$HTTP_PORT"
    return 0
  fi

  local cmd; cmd="$(server_cmd)"
  [[ -n "$cmd" ]] || die "no clickhouse-server binary; run: $0 install"

  # A stale pid file of ours whose process still lives but does not answer: stop it first.
  local old
  if old="$(read_pid)" && is_clickhouse_pid "$old"; then
    log "pid $old from $PID_FILE is alive but /ping fails; stopping it first"
    stop_pid "$old"
  fi
  rm -f "$PID_FILE"

  write_config
  local -a argv
  read -r -a argv <<<"$cmd"
  log "starting ${argv[*]} (state: $STATE_DIR, http 127.0.0.1:$HTTP_PORT, tcp 127.0.0.1:$TCP_PORT)"
  : >"$LOG_DIR/stdout.log"
  # setsid: own session, so a Ctrl-C in the caller's terminal does not reach the server.
  # nohup + redirects: never holds the caller's stdio pipes open. 9>&- : don't inherit the lock.
  local -a pre=()
  command -v setsid >/dev/null 2>&1 && pre=(setsid)
  (cd "$STATE_DIR" && exec "${pre[@]}" nohup "${argv[@]}" --config-file="$STATE_DIR/config.xml" \
      </dev/null >>"$LOG_DIR/stdout.log" 2>&1 9>&-) &
  local pid=$!
  echo "$pid" >"$PID_FILE"

  local deadline=$((SECONDS + START_TIMEOUT))
  while ((SECONDS < deadline)); do
    if ping_ok; then
      log "ready on http://127.0.0.1:$HTTP_PORT (pid $pid)"
      return 0
    fi
    if ! kill -0 "$pid" 2>/dev/null; then
      rm -f "$PID_FILE"
      log "server process $pid exited during startup"
      print_log_tail
      exit 1
    fi
    sleep 0.25
  done
  log "server did not answer /ping on 127.0.0.1:$HTTP_PORT within ${START_TIMEOUT}s (pid $pid left running; run '$0 stop')"
  print_log_tail
  exit 1
}

# Sends TERM, waits up to 30 s, then KILL; returns once the process is gone.
stop_pid() {
  local pid="$1" i
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < 120; i++)); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.25
  done
  log "pid $pid still alive after 30 s; sending KILL"
  kill -KILL "$pid" 2>/dev/null || true
  for ((i = 0; i < 40; i++)); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.25
  done
  die "pid $pid did not exit"
}

cmd_stop() {
  abs_state_dir
  take_lock
  local pid
  if pid="$(read_pid)" && is_clickhouse_pid "$pid"; then
    log "stopping pid $pid"
    stop_pid "$pid"
    rm -f "$PID_FILE"
    log "stopped"
    return 0
  fi
  rm -f "$PID_FILE"
  if ping_ok; then
    die "something answers on 127.0.0.1:$HTTP_PORT but it was not started from $STATE_DIR (no live pid file); not stopping it"
  fi
  log "not running"
}

cmd_status() {
  abs_state_dir
  if ping_ok; then
    local pid=""; pid="$(read_pid 2>/dev/null || true)"
    log "running on http://127.0.0.1:$HTTP_PORT${pid:+ (pid $pid)}"
    return 0
  fi
  log "not running (no Ok. from http://127.0.0.1:$HTTP_PORT/ping)"
  return 1
}

case "${1:-}" in
  install) cmd_install ;;
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  *) echo "usage: $0 {install|start|stop|status}" >&2; exit 2 ;;
esac
