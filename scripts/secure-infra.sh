#!/usr/bin/env bash
# A secured Kafka broker and ClickHouse server, separate from the plaintext ones of `npm run
# infra:up` (own ports, own state), for the TLS/SASL integration tests and for trying the
# settings of docs/security.md by hand.
#
#   scripts/secure-infra.sh certs    # a test CA, server and client certificates, random passwords (openssl)
#   scripts/secure-infra.sh start    # certs + Kafka + ClickHouse below, each waits until ready
#   scripts/secure-infra.sh stop     # stops both (only what was started from this state dir)
#   scripts/secure-infra.sh status   # exit 0 iff both answer
#   scripts/secure-infra.sh env      # the DEV_STATS_* settings for the SASL_SSL listener and HTTPS
#
# Kafka 3.9 (scripts/kafka-broker.sh): PLAINTEXT 127.0.0.1:29092 (admin, inter-broker),
# controller 29093, SASL_SSL 29094 (SCRAM-SHA-512, user dev-stats, created at storage format
# time with Kafka's own StorageTool --add-scram), SSL 29095 (client certificate required).
# ClickHouse 18.16 (scripts/clickhouse-server.sh): HTTPS 127.0.0.1:18443, HTTP 28123, native
# 29000, user devstats with a password. Certificates: CA "dev-stats test CA"; the server's
# certificate names IP 127.0.0.1 and localhost. other-ca.crt is an unrelated CA (the "unknown
# CA" case). Idempotent; state in $DEV_STATS_SECURE_DIR (default <repo>/.infra/secure).
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(cd "$SCRIPT_DIR/.." && pwd)"
SECURE_DIR="${DEV_STATS_SECURE_DIR:-$REPO_DIR/.infra/secure}"
TLS="$SECURE_DIR/tls"

log() { printf '[secure-infra] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

kafka() {
  DEV_STATS_INFRA_DIR="$SECURE_DIR" KAFKA_PORT=29092 KAFKA_CONTROLLER_PORT=29093 KAFKA_SASL_SSL_PORT=29094 KAFKA_SSL_PORT=29095 \
    KAFKA_TLS_DIR="$TLS" KAFKA_SCRAM_USER=dev-stats KAFKA_SCRAM_PASSWORD_FILE="$SECURE_DIR/kafka-password" \
    bash "$SCRIPT_DIR/kafka-broker.sh" "$@"
}

clickhouse() {
  CLICKHOUSE_STATE_DIR="$SECURE_DIR/clickhouse" CLICKHOUSE_HTTP_PORT=28123 CLICKHOUSE_TCP_PORT=29000 CLICKHOUSE_HTTPS_PORT=18443 \
    CLICKHOUSE_TLS_DIR="$TLS" CLICKHOUSE_USER_NAME=devstats CLICKHOUSE_USER_PASSWORD_FILE="$SECURE_DIR/clickhouse-password" \
    bash "$SCRIPT_DIR/clickhouse-server.sh" "$@"
}

# A CA-signed certificate: $1 name, $2 CN, $3 extensions.
issue() {
  openssl req -new -newkey rsa:2048 -nodes -keyout "$TLS/$1.key" -out "$TLS/$1.csr" -subj "/CN=$2" 2>/dev/null
  printf '%s\n' "$3" >"$TLS/$1.ext"
  openssl x509 -req -in "$TLS/$1.csr" -CA "$TLS/ca.crt" -CAkey "$TLS/ca.key" -CAcreateserial \
    -days 825 -sha256 -extfile "$TLS/$1.ext" -out "$TLS/$1.crt" 2>/dev/null
  rm -f "$TLS/$1.csr" "$TLS/$1.ext"
}

self_signed_ca() {
  openssl req -x509 -newkey rsa:2048 -nodes -keyout "$TLS/$1.key" -out "$TLS/$1.crt" -days 3650 -sha256 -subj "/CN=$2" \
    -addext 'basicConstraints=critical,CA:TRUE' -addext 'keyUsage=critical,keyCertSign,cRLSign' 2>/dev/null
}

cmd_certs() {
  command -v openssl >/dev/null 2>&1 || die "openssl not found (apt-get install -y openssl)"
  mkdir -p "$TLS"
  chmod 700 "$SECURE_DIR" "$TLS"
  if [[ -s "$TLS/server.keystore.pem" && -s "$TLS/client.crt" && -s "$TLS/other-ca.crt" ]]; then
    log "certificates already in $TLS"
  else
    log "making a test CA and certificates in $TLS"
    self_signed_ca ca 'dev-stats test CA'
    self_signed_ca other-ca 'some other CA'
    issue server localhost $'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE'
    issue client dev-stats-client $'extendedKeyUsage=clientAuth\nbasicConstraints=CA:FALSE'
    # Kafka's PEM keystore: the unencrypted PKCS#8 key followed by the certificate chain.
    cat "$TLS/server.key" "$TLS/server.crt" "$TLS/ca.crt" >"$TLS/server.keystore.pem"
    chmod 600 "$TLS"/*.key "$TLS/server.keystore.pem"
  fi
  local f
  for f in kafka-password clickhouse-password; do
    [[ -s "$SECURE_DIR/$f" ]] || { openssl rand -hex 16 >"$SECURE_DIR/$f"; chmod 600 "$SECURE_DIR/$f"; }
  done
}

cmd_start() {
  cmd_certs
  clickhouse install
  clickhouse start
  kafka start
}

cmd_stop() {
  kafka stop || true
  clickhouse stop
}

cmd_status() {
  clickhouse status && kafka status
}

cmd_env() {
  cat <<EOF
DEV_STATS_KAFKA_BROKERS=127.0.0.1:29094
DEV_STATS_KAFKA_SECURITY_PROTOCOL=sasl_ssl
DEV_STATS_KAFKA_SASL_MECHANISM=scram-sha-512
DEV_STATS_KAFKA_SASL_USERNAME=dev-stats
DEV_STATS_KAFKA_SASL_PASSWORD_FILE=$SECURE_DIR/kafka-password
DEV_STATS_KAFKA_SSL_CA_FILE=$TLS/ca.crt
DEV_STATS_CLICKHOUSE_URL=https://127.0.0.1:18443
DEV_STATS_CLICKHOUSE_CA_FILE=$TLS/ca.crt
DEV_STATS_CLICKHOUSE_USER=devstats
DEV_STATS_CLICKHOUSE_PASSWORD_FILE=$SECURE_DIR/clickhouse-password
EOF
}

case "${1:-}" in
  certs) cmd_certs ;;
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  env) cmd_env ;;
  *) sed -n '2,19p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
