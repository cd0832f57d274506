// Owned by the ClickHouse work: starts the local ClickHouse server (scripts/clickhouse-server.sh).
export default async function setup(): Promise<void> {}
