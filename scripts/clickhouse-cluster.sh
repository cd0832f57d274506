#!/usr/bin/env bash
# Local ClickHouse cluster: one shard with two replicas (ClickHouse 18.16) coordinated by one
# ZooKeeper, all on 127.0.0.1 with their own ports and state dirs, never the shared server.
#
#   scripts/clickhouse-cluster.sh install            # clickhouse-server + zookeeper packages
#   scripts/clickhouse-cluster.sh start|stop|status  # the whole cluster (idempotent)
#   scripts/clickhouse-cluster.sh reset              # stop, then delete its state (a clean cluster next start)
#   scripts/clickhouse-cluster.sh start-replica N    # one replica (N = 1 or 2), e.g. after stop-replica
#   scripts/clickhouse-cluster.sh stop-replica N
#
# Ports (defaults): ZooKeeper 12181; replica N: HTTP 1820N, TCP 1920N, interserver 1930N.
# Cluster name: DEV_STATS_TEST_CLUSTER (default dev_stats_local). State (pid files, data):
# DEV_STATS_CLUSTER_DIR, default $TMPDIR/dev-stats-cluster — machine-wide like its ports, so every
# checkout of the project starts, stops and restarts replicas of the same cluster.
# Why one shard, not two: the machine has 2 cores shared by every test; four servers plus
# ZooKeeper and Kafka would make the suite slow without testing anything the Distributed
# table's sharding key does not already decide (docs/clickhouse.md).
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
STATE_ROOT="${DEV_STATS_CLUSTER_DIR:-${TMPDIR:-/tmp}/dev-stats-cluster}"
CLUSTER="${DEV_STATS_TEST_CLUSTER:-dev_stats_local}"
ZK_PORT="${ZOOKEEPER_PORT:-12181}"

replica_env() {
  local n="$1"
  [[ "$n" == 1 || "$n" == 2 ]] || { echo "replica must be 1 or 2, got '$n'" >&2; exit 2; }
  export CLICKHOUSE_HTTP_PORT="1820$n" CLICKHOUSE_TCP_PORT="1920$n" CLICKHOUSE_INTERSERVER_PORT="1930$n" \
    CLICKHOUSE_STATE_DIR="$STATE_ROOT/replica$n" CLICKHOUSE_CLUSTER="$CLUSTER" CLICKHOUSE_CLUSTER_SHARDS="19201,19202" \
    CLICKHOUSE_ZOOKEEPER="127.0.0.1:$ZK_PORT" CLICKHOUSE_SHARD=01 CLICKHOUSE_REPLICA="replica$n"
}

replica() { (replica_env "$2" && bash "$SCRIPT_DIR/clickhouse-server.sh" "$1"); }
zookeeper() { ZOOKEEPER_PORT="$ZK_PORT" ZOOKEEPER_STATE_DIR="$STATE_ROOT/zookeeper" bash "$SCRIPT_DIR/zookeeper.sh" "$1"; }

case "${1:-}" in
  install) bash "$SCRIPT_DIR/clickhouse-server.sh" install && zookeeper install ;;
  start) zookeeper start && replica start 1 && replica start 2 ;;
  stop) replica stop 2 || true; replica stop 1 || true; zookeeper stop ;;
  status) zookeeper status && replica status 1 && replica status 2 ;;
  reset) "$0" stop; rm -rf "$STATE_ROOT" ;;
  start-replica) replica start "${2:-}" ;;
  stop-replica) replica stop "${2:-}" ;;
  *) echo "usage: $0 {install|start|stop|status|reset|start-replica N|stop-replica N}" >&2; exit 2 ;;
esac
