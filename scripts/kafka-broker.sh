#!/usr/bin/env bash
# Local single-node Apache Kafka 3.9 broker (KRaft, no ZooKeeper, no Docker) for
# development, integration tests and CI. Jars come from the default Maven
# repository via scripts/kafka/pom.xml. Every subcommand is idempotent.
#
#   scripts/kafka-broker.sh fetch          # resolve jars into the cache (skips when complete)
#   scripts/kafka-broker.sh start          # fetch + format storage + start + wait until ready
#   scripts/kafka-broker.sh create-topics  # create the consumer registry's topics (npm run topics)
#   scripts/kafka-broker.sh status         # exit 0 iff the broker answers
#   scripts/kafka-broker.sh stop           # SIGTERM, wait up to 30 s, then SIGKILL
#
# Environment (all optional):
#   KAFKA_PORT                 client listener port        (default 19092)
#   KAFKA_CONTROLLER_PORT      KRaft controller port       (default 19093)
#   KAFKA_START_TIMEOUT        seconds to wait for ready   (default 90)
#   DEV_STATS_CACHE_DIR        jar cache root              (default ~/.cache/dev-stats)
#   DEV_STATS_INFRA_DIR        runtime state root          (default <repo>/.infra, git-ignored)
# Secured listeners (all unset by default; scripts/secure-infra.sh sets them for its own broker):
#   KAFKA_SASL_SSL_PORT        adds SASL_SSL://127.0.0.1:<port> with SCRAM-SHA-512
#   KAFKA_SSL_PORT             adds SSL://127.0.0.1:<port> that requires a client certificate
#   KAFKA_TLS_DIR              holds server.keystore.pem (key + chain) and ca.crt (PEM)
#   KAFKA_SCRAM_USER / KAFKA_SCRAM_PASSWORD_FILE  SCRAM user created at storage format time
# A listener reached through a fault proxy (the soak's network faults; unset by default):
#   KAFKA_PROXIED_PORT            adds PROXIED://127.0.0.1:<port> (plaintext) ...
#   KAFKA_PROXIED_ADVERTISED_PORT ... advertised as the proxy's port, so that clients keep going through it
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(cd "$SCRIPT_DIR/.." && pwd)"

KAFKA_VERSION="3.9.1"
KAFKA_HOST="127.0.0.1"
KAFKA_PORT="${KAFKA_PORT:-19092}"
KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-19093}"
KAFKA_START_TIMEOUT="${KAFKA_START_TIMEOUT:-90}"
KAFKA_STOP_TIMEOUT=30
BOOTSTRAP="$KAFKA_HOST:$KAFKA_PORT"

KAFKA_SASL_SSL_PORT="${KAFKA_SASL_SSL_PORT:-}"
KAFKA_SSL_PORT="${KAFKA_SSL_PORT:-}"
KAFKA_TLS_DIR="${KAFKA_TLS_DIR:-}"
KAFKA_PROXIED_PORT="${KAFKA_PROXIED_PORT:-}"
KAFKA_PROXIED_ADVERTISED_PORT="${KAFKA_PROXIED_ADVERTISED_PORT:-$KAFKA_PROXIED_PORT}"

POM="$SCRIPT_DIR/kafka/pom.xml"
CACHE_ROOT="${DEV_STATS_CACHE_DIR:-${HOME:-/root}/.cache/dev-stats}"
KAFKA_HOME_DIR="$CACHE_ROOT/kafka-$KAFKA_VERSION"
LIBS_DIR="$KAFKA_HOME_DIR/libs"
LIBS_MARKER="$LIBS_DIR/.complete"

INFRA_DIR="${DEV_STATS_INFRA_DIR:-$REPO_DIR/.infra}"
STATE_DIR="$INFRA_DIR/kafka"
DATA_DIR="$STATE_DIR/data"
LOG_DIR="$STATE_DIR/logs"
CONFIG_FILE="$STATE_DIR/server.properties"
LOG4J_FILE="$STATE_DIR/log4j.properties"
CLUSTER_ID_FILE="$STATE_DIR/cluster.id"
PID_FILE="$STATE_DIR/kafka.pid"
OUT_FILE="$LOG_DIR/kafka.out"
SERVER_LOG="$LOG_DIR/server.log"

log() { printf '[kafka-broker] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }
now_ms() { date +%s%3N; }

require_java() {
  command -v java >/dev/null 2>&1 || die "java not found (need Java 17+; apt-get install -y openjdk-17-jre-headless)"
}

# Fingerprint of the inputs that decide the jar set: a changed pom triggers a re-fetch.
pom_fingerprint() { { echo "$KAFKA_VERSION"; cat "$POM"; } | sha256sum | cut -d' ' -f1; }

libs_complete() {
  [[ -f "$LIBS_MARKER" ]] && [[ "$(cat "$LIBS_MARKER")" == "$(pom_fingerprint)" ]] \
    && compgen -G "$LIBS_DIR/kafka_2.13-$KAFKA_VERSION.jar" >/dev/null
}

cmd_fetch() {
  if libs_complete; then
    log "jars already in $LIBS_DIR"
    return 0
  fi
  require_java
  command -v mvn >/dev/null 2>&1 || die "mvn not found (apt-get install -y maven)"
  log "resolving Apache Kafka $KAFKA_VERSION jars into $LIBS_DIR"
  mkdir -p "$KAFKA_HOME_DIR"
  local tmp="$KAFKA_HOME_DIR/libs.tmp.$$"
  rm -rf "$tmp"
  # Copy into a temp dir and swap it in, so an interrupted fetch never looks complete.
  local mvn_log="$KAFKA_HOME_DIR/fetch.log"
  if ! mvn -B -q -Dstyle.color=never -f "$POM" dependency:copy-dependencies \
      -DoutputDirectory="$tmp" -DincludeScope=runtime >"$mvn_log" 2>&1; then
    tail -n 40 "$mvn_log" >&2
    rm -rf "$tmp"
    die "maven could not resolve the Kafka jars (full output: $mvn_log)"
  fi
  compgen -G "$tmp/kafka_2.13-$KAFKA_VERSION.jar" >/dev/null || { rm -rf "$tmp"; die "kafka_2.13 jar missing after fetch"; }
  pom_fingerprint >"$tmp/.complete"
  rm -rf "$LIBS_DIR"
  mv "$tmp" "$LIBS_DIR"
  log "fetched $(find "$LIBS_DIR" -name '*.jar' | wc -l) jars"
}

kafka_java() {
  # Quote the classpath glob so Java (not the shell) expands it.
  java -Xshare:auto -Djava.awt.headless=true \
    -Dlog4j.configuration="file:$LOG4J_FILE" -Dkafka.logs.dir="$LOG_DIR" \
    -cp "$LIBS_DIR/*" "$@"
}

# The optional secured and proxied listeners: extra listener entries ($1: address | advertised | map) and their settings.
secure_listeners() {
  if [[ -n "$KAFKA_PROXIED_PORT" ]]; then
    case "$1" in
      map) printf ',PROXIED:PLAINTEXT' ;;
      address) printf ',PROXIED://%s:%s' "$KAFKA_HOST" "$KAFKA_PROXIED_PORT" ;;
      advertised) printf ',PROXIED://%s:%s' "$KAFKA_HOST" "$KAFKA_PROXIED_ADVERTISED_PORT" ;;
    esac
  fi
  if [[ -n "$KAFKA_SASL_SSL_PORT" ]]; then
    if [[ "$1" == map ]]; then printf ',SASL_SSL:SASL_SSL'; else printf ',SASL_SSL://%s:%s' "$KAFKA_HOST" "$KAFKA_SASL_SSL_PORT"; fi
  fi
  if [[ -n "$KAFKA_SSL_PORT" ]]; then
    if [[ "$1" == map ]]; then printf ',SSL:SSL'; else printf ',SSL://%s:%s' "$KAFKA_HOST" "$KAFKA_SSL_PORT"; fi
  fi
}

secure_settings() {
  [[ -n "$KAFKA_SASL_SSL_PORT$KAFKA_SSL_PORT" ]] || return 0
  cat <<EOF
ssl.keystore.type=PEM
ssl.keystore.location=$KAFKA_TLS_DIR/server.keystore.pem
ssl.truststore.type=PEM
ssl.truststore.location=$KAFKA_TLS_DIR/ca.crt
sasl.enabled.mechanisms=SCRAM-SHA-512
listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required ;
listener.name.ssl.ssl.client.auth=required
EOF
}

# --add-scram arguments of the storage format, one per line, when a SCRAM user is configured.
scram_args() {
  [[ -n "${KAFKA_SCRAM_USER:-}" ]] || return 0
  printf '%s\n' --add-scram "SCRAM-SHA-512=[name=$KAFKA_SCRAM_USER,password=$(tr -d '\n' <"$KAFKA_SCRAM_PASSWORD_FILE")]"
}

write_configs() {
  mkdir -p "$DATA_DIR" "$LOG_DIR"
  if [[ -n "$KAFKA_SASL_SSL_PORT$KAFKA_SSL_PORT" ]]; then
    [[ -f "$KAFKA_TLS_DIR/server.keystore.pem" && -f "$KAFKA_TLS_DIR/ca.crt" ]] \
      || die "KAFKA_TLS_DIR must hold server.keystore.pem and ca.crt (scripts/secure-infra.sh certs makes them)"
  fi
  if [[ -n "${KAFKA_SCRAM_USER:-}" && ! -s "${KAFKA_SCRAM_PASSWORD_FILE:-}" ]]; then
    die "KAFKA_SCRAM_PASSWORD_FILE must name a non-empty file"
  fi
  cat >"$CONFIG_FILE" <<EOF
# Generated by scripts/kafka-broker.sh on every start; edit the script, not this file.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@$KAFKA_HOST:$KAFKA_CONTROLLER_PORT
listeners=PLAINTEXT://$KAFKA_HOST:$KAFKA_PORT,CONTROLLER://$KAFKA_HOST:$KAFKA_CONTROLLER_PORT$(secure_listeners address)
advertised.listeners=PLAINTEXT://$KAFKA_HOST:$KAFKA_PORT$(secure_listeners advertised)
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT$(secure_listeners map)
log.dirs=$DATA_DIR
num.partitions=1
default.replication.factor=1
auto.create.topics.enable=false
delete.topic.enable=true
offsets.topic.replication.factor=1
offsets.topic.num.partitions=6
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=6
group.initial.rebalance.delay.ms=0
num.network.threads=2
num.io.threads=4
num.recovery.threads.per.data.dir=1
log.retention.hours=168
log.segment.bytes=104857600
$(secure_settings)
EOF
  cat >"$LOG4J_FILE" <<'EOF'
# Generated by scripts/kafka-broker.sh. Broker logs go to files under ${kafka.logs.dir}.
log4j.rootLogger=INFO, kafkaAppender
log4j.appender.kafkaAppender=org.apache.log4j.RollingFileAppender
log4j.appender.kafkaAppender.File=${kafka.logs.dir}/server.log
log4j.appender.kafkaAppender.MaxFileSize=20MB
log4j.appender.kafkaAppender.MaxBackupIndex=3
log4j.appender.kafkaAppender.layout=org.apache.log4j.PatternLayout
log4j.appender.kafkaAppender.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.appender.stateChangeAppender=org.apache.log4j.RollingFileAppender
log4j.appender.stateChangeAppender.File=${kafka.logs.dir}/state-change.log
log4j.appender.stateChangeAppender.MaxFileSize=10MB
log4j.appender.stateChangeAppender.MaxBackupIndex=1
log4j.appender.stateChangeAppender.layout=org.apache.log4j.PatternLayout
log4j.appender.stateChangeAppender.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.org.apache.kafka=INFO
log4j.logger.kafka=INFO
log4j.logger.kafka.request.logger=WARN
log4j.logger.state.change.logger=INFO, stateChangeAppender
log4j.additivity.state.change.logger=false
EOF
  cat >"$STATE_DIR/tools-log4j.properties" <<'EOF'
log4j.rootLogger=ERROR, stderr
log4j.appender.stderr=org.apache.log4j.ConsoleAppender
log4j.appender.stderr.Target=System.err
log4j.appender.stderr.layout=org.apache.log4j.PatternLayout
log4j.appender.stderr.layout.ConversionPattern=[%d] %p %m (%c)%n
EOF
}

# Pid of the broker started from this state dir, if it is alive (guards against pid reuse).
broker_pid() {
  [[ -f "$PID_FILE" ]] || return 1
  local pid
  pid="$(tr -dc '0-9' <"$PID_FILE")"
  [[ -n "$pid" ]] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "kafka.Kafka $CONFIG_FILE" || return 1
  echo "$pid"
}

port_open() { (exec 3<>"/dev/tcp/$KAFKA_HOST/$1") 2>/dev/null; }

# True iff a Kafka broker answers an ApiVersions round trip on the client port.
broker_answers() {
  port_open "$KAFKA_PORT" || return 1
  libs_complete || return 1
  [[ -f "$STATE_DIR/tools-log4j.properties" ]] || { mkdir -p "$STATE_DIR"; write_configs; }
  local out
  out="$(timeout 30 java -Xms32m -Xmx128m -XX:TieredStopAtLevel=1 -Xshare:auto \
    -Dlog4j.configuration="file:$STATE_DIR/tools-log4j.properties" \
    -cp "$LIBS_DIR/*" kafka.admin.BrokerApiVersionsCommand \
    --bootstrap-server "$BOOTSTRAP" 2>/dev/null)" || return 1
  [[ "$out" == *"$KAFKA_HOST:$KAFKA_PORT (id:"* ]]
}

print_log_tail() {
  local f
  for f in "$OUT_FILE" "$SERVER_LOG"; do
    if [[ -s "$f" ]]; then
      log "---- last lines of $f ----"
      tail -n 40 "$f" >&2
    fi
  done
}

cmd_start() {
  local t0 pid
  t0="$(now_ms)"
  if pid="$(broker_pid)"; then
    if broker_answers; then
      log "already running (pid $pid) on $BOOTSTRAP"
      return 0
    fi
    log "broker process $pid is up but not answering yet; waiting"
  else
    rm -f "$PID_FILE"
    if port_open "$KAFKA_PORT"; then
      if broker_answers; then
        log "a Kafka broker not started from $STATE_DIR already answers on $BOOTSTRAP; using it"
        return 0
      fi
      die "port $KAFKA_PORT is taken by something that is not a Kafka broker (set KAFKA_PORT)"
    fi
    port_open "$KAFKA_CONTROLLER_PORT" && die "controller port $KAFKA_CONTROLLER_PORT is in use (set KAFKA_CONTROLLER_PORT)"

    cmd_fetch
    require_java
    write_configs

    if [[ ! -s "$CLUSTER_ID_FILE" ]]; then
      kafka_java kafka.tools.StorageTool random-uuid 2>/dev/null | tail -n 1 | tr -d '[:space:]' >"$CLUSTER_ID_FILE.tmp"
      [[ -s "$CLUSTER_ID_FILE.tmp" ]] || die "could not generate a cluster id"
      mv "$CLUSTER_ID_FILE.tmp" "$CLUSTER_ID_FILE"
    fi
    if [[ ! -f "$DATA_DIR/meta.properties" ]]; then
      log "formatting storage in $DATA_DIR (cluster $(cat "$CLUSTER_ID_FILE"))"
      local -a scram=()
      mapfile -t scram < <(scram_args)
      kafka_java kafka.tools.StorageTool format -t "$(cat "$CLUSTER_ID_FILE")" \
        -c "$CONFIG_FILE" --ignore-formatted "${scram[@]}" >>"$OUT_FILE" 2>&1 \
        || { print_log_tail; die "storage format failed"; }
    fi

    log "starting Kafka $KAFKA_VERSION on $BOOTSTRAP (state: $STATE_DIR)"
    echo "==== start $(date -u +%FT%TZ) ====" >>"$OUT_FILE"
    # setsid: own session, so the broker outlives this shell and its job control.
    # The inner shell records its own pid and then execs java, so the pid file is exact.
    setsid bash -c 'echo $$ >"$0"; exec "$@"' "$PID_FILE" \
      java -Xms256m -Xmx512m -XX:+UseG1GC -XX:MaxGCPauseMillis=20 \
      -XX:InitiatingHeapOccupancyPercent=35 -XX:+ExplicitGCInvokesConcurrent \
      -Djava.awt.headless=true \
      -Dlog4j.configuration="file:$LOG4J_FILE" -Dkafka.logs.dir="$LOG_DIR" \
      -cp "$LIBS_DIR/*" kafka.Kafka "$CONFIG_FILE" \
      </dev/null >>"$OUT_FILE" 2>&1 &
    local launcher=$!
    for _ in $(seq 50); do [[ -s "$PID_FILE" ]] && break; sleep 0.1; done
    pid="$(tr -dc '0-9' <"$PID_FILE" 2>/dev/null || true)"
    [[ -n "$pid" ]] || pid="$launcher"
  fi

  local deadline=$(( $(date +%s) + KAFKA_START_TIMEOUT ))
  while (( $(date +%s) < deadline )); do
    if ! kill -0 "$pid" 2>/dev/null; then
      print_log_tail
      rm -f "$PID_FILE"
      die "broker process $pid exited during startup"
    fi
    if port_open "$KAFKA_PORT" && broker_answers; then
      log "ready on $BOOTSTRAP (pid $pid) in $(( $(now_ms) - t0 )) ms"
      return 0
    fi
    sleep 0.5
  done
  print_log_tail
  die "broker not ready within ${KAFKA_START_TIMEOUT}s (pid $pid still running; see $SERVER_LOG)"
}

cmd_stop() {
  local pid
  if ! pid="$(broker_pid)"; then
    rm -f "$PID_FILE"
    log "not running"
    return 0
  fi
  log "stopping broker (pid $pid)"
  kill -TERM "$pid" 2>/dev/null || true
  local i
  for (( i = 0; i < KAFKA_STOP_TIMEOUT * 10; i++ )); do
    kill -0 "$pid" 2>/dev/null || { rm -f "$PID_FILE"; log "stopped"; return 0; }
    sleep 0.1
  done
  log "still alive after ${KAFKA_STOP_TIMEOUT}s; sending SIGKILL"
  kill -KILL "$pid" 2>/dev/null || true
  for (( i = 0; i < 50; i++ )); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  rm -f "$PID_FILE"
  log "killed"
}

cmd_status() {
  local pid=""
  pid="$(broker_pid)" || pid=""
  if broker_answers; then
    log "up on $BOOTSTRAP${pid:+ (pid $pid)}"
    return 0
  fi
  if [[ -n "$pid" ]]; then log "process $pid is running but the broker does not answer on $BOOTSTRAP"
  else log "down"; fi
  return 1
}

cmd_create_topics() {
  # The topic list comes from the consumer registry (src/application/consumers/consumer-registry.ts).
  [[ -x "$REPO_DIR/node_modules/.bin/tsx" ]] || die "node_modules missing: run npm ci first"
  (cd "$REPO_DIR" && DEV_STATS_KAFKA_BROKERS="$BOOTSTRAP" node_modules/.bin/tsx src/cli/main.ts topics)
}

usage() {
  sed -n '2,25p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

case "${1:-}" in
  fetch) cmd_fetch ;;
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  create-topics) cmd_create_topics ;;
  restart) cmd_stop; cmd_start ;;
  *) usage ;;
esac
