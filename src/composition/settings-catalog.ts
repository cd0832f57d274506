// Every DEV_STATS_* variable the service and its commands read, with what it means: the one list
// that docs/configuration.md is generated from (scripts/configuration-doc.ts) and that `check`,
// `start` and configFromEnv hold the environment against (unknown-settings.ts). Defaults and ranges
// come from the code (config.ts, setting-rules.ts) unless a row says them.

export interface Setting {
  readonly env: string
  readonly meaning: string
  /** When the default is not the value at the rule's config path. */
  readonly default?: string
  /** When no setting rule checks it. */
  readonly range?: string
}

export interface Group {
  readonly title: string
  /** The repository's scripts and tests read these, not the service: accepted, never used by it. */
  readonly tooling?: true
  readonly settings: readonly Setting[]
}

export const SETTING_GROUPS: readonly Group[] = [
  {
    title: 'Clients and store',
    settings: [
      { env: 'DEV_STATS_BROKER', meaning: 'the Kafka client: `kafkajs`, `confluent` (librdkafka, an optional dependency) or `memory` (in-process, the demo). `replay` and `dlq` default to `kafkajs`' },
      { env: 'DEV_STATS_STORE', meaning: 'where facts go: `clickhouse` (a server over HTTP), `embedded` (chdb, an optional dependency) or `memory`. `migrate`, `backfill` default to `clickhouse`' },
      { env: 'DEV_STATS_LOG_LEVEL', meaning: 'pino level of the JSON log lines (`replay` and `dlq` default to `error`)' },
      { env: 'DEV_STATS_FUNNEL_ENABLED', default: '`false`', range: '`true` or `false` (also 1/0, on/off, yes/no)', meaning: 'the flag `dev-stats.funnel.enabled`: runs the lead-created consumer (seed 003)' },
      { env: 'DEV_STATS_VIEW_SOURCES', meaning: 'ViewSource values stored as themselves; any other is stored as `Unknown` with a warning, the wire value kept in `ViewSourceRaw`' },
    ],
  },
  {
    title: 'Kafka',
    settings: [
      { env: 'DEV_STATS_KAFKA_BROKERS', meaning: 'bootstrap servers, comma-separated' },
      { env: 'DEV_STATS_KAFKA_CLIENT_ID', meaning: 'the Kafka client id' },
      { env: 'DEV_STATS_KAFKA_SECURITY_PROTOCOL', default: '`plaintext`', range: '`plaintext`, `ssl`, `sasl_ssl` or `sasl_plaintext`', meaning: "the listener's type (docs/security.md)" },
      { env: 'DEV_STATS_KAFKA_SASL_MECHANISM', default: '`scram-sha-512`', range: '`scram-sha-256`, `scram-sha-512` or `plain`', meaning: 'only with `sasl_*`' },
      { env: 'DEV_STATS_KAFKA_SASL_USERNAME', default: 'unset', range: 'required with `sasl_*`', meaning: 'the SASL user' },
      { env: 'DEV_STATS_KAFKA_SASL_PASSWORD', default: 'unset', range: 'required with `sasl_*`', meaning: 'its password; or `DEV_STATS_KAFKA_SASL_PASSWORD_FILE`, a file holding it (one trailing newline dropped), never both' },
      { env: 'DEV_STATS_KAFKA_SASL_PASSWORD_FILE', default: 'unset', range: 'a readable file', meaning: 'see `DEV_STATS_KAFKA_SASL_PASSWORD`' },
      { env: 'DEV_STATS_KAFKA_SSL_CA_FILE', default: 'the system trust store', range: 'a PEM file; only with `ssl`/`sasl_ssl`', meaning: "CA certificate(s) that signed the brokers' certificates" },
      { env: 'DEV_STATS_KAFKA_SSL_CERT_FILE', default: 'unset', range: 'a PEM file, with the key', meaning: 'client certificate, for listeners that require mutual TLS' },
      { env: 'DEV_STATS_KAFKA_SSL_KEY_FILE', default: 'unset', range: 'a PEM file, with the certificate', meaning: 'its private key' },
      { env: 'DEV_STATS_KAFKA_SSL_KEY_PASSWORD', default: 'unset', range: 'text', meaning: 'passphrase of an encrypted client key; or `DEV_STATS_KAFKA_SSL_KEY_PASSWORD_FILE`' },
      { env: 'DEV_STATS_KAFKA_SSL_KEY_PASSWORD_FILE', default: 'unset', range: 'a readable file', meaning: 'see `DEV_STATS_KAFKA_SSL_KEY_PASSWORD`' },
      { env: 'DEV_STATS_TOPIC_<KEY>', default: 'spec §2', range: 'a topic name', meaning: "a consumer's source topic (its `.dlq` follows); KEY is its `key` in `src/application/consumers/consumer-registry.ts`, e.g. `SESSION_ENDED`" },
      { env: 'DEV_STATS_GROUP_<KEY>', default: 'spec §2', range: 'a group id', meaning: "a consumer's group (its `.retry` topic follows)" },
    ],
  },
  {
    title: 'ClickHouse',
    settings: [
      { env: 'DEV_STATS_CLICKHOUSE_URL', meaning: 'the server; `https://…` for TLS' },
      { env: 'DEV_STATS_CLICKHOUSE_USER', default: '`default`', range: 'a user name', meaning: 'the ClickHouse user' },
      { env: 'DEV_STATS_CLICKHOUSE_PASSWORD', default: 'empty', range: 'text', meaning: 'its password; or `DEV_STATS_CLICKHOUSE_PASSWORD_FILE`, never both' },
      { env: 'DEV_STATS_CLICKHOUSE_PASSWORD_FILE', default: 'unset', range: 'a readable file', meaning: 'see `DEV_STATS_CLICKHOUSE_PASSWORD`' },
      { env: 'DEV_STATS_CLICKHOUSE_CA_FILE', default: 'the system trust store', range: 'a PEM file; only with `https://`', meaning: "CA certificate of the server's certificate" },
      { env: 'DEV_STATS_CLICKHOUSE_DATABASE', meaning: 'the database of every table' },
      { env: 'DEV_STATS_CLICKHOUSE_REQUEST_TIMEOUT_MS', meaning: "a request (insert, lookup, read, ping) whose connection carries nothing this long fails: an insert is retried (docs/ingest-rules.md), and a stop waits at most this long for an insert in flight (docs/operations.md, Shutdown). Keep it above `DEV_STATS_READ_QUERY_TIMEOUT_SECONDS`, which the server enforces on reads" },
      { env: 'DEV_STATS_SERVING_LATENESS_DAYS', meaning: "how late a session or view fact may arrive (ingestion time minus EventTime) and still be served exactly: the serving tables' link rows are kept this plus 33 days and older monthly partitions dropped, hourly (docs/clickhouse.md, *Retention*); a later fact is stored and counted in `dev_stats_serving_out_of_assumption_total{reason=\"late\"}`" },
      { env: 'DEV_STATS_SERVING_RECONCILE_MINUTES', meaning: 'every this many minutes (the first time this long after start) each instance (under `start --workers N`, worker 1 alone) re-runs the serving step over the last three UTC days and, in turn, one older day of the lateness window (each every `DEV_STATS_SERVING_LATENESS_DAYS` − 2 passes) from the link tables and writes the serving rows missing (a lookup that missed an acknowledged insert, e.g. on a cluster while a replica was down), counted in `dev_stats_serving_repaired_rows_total`; 0: never (docs/clickhouse.md, *Reconciliation*)' },
      { env: 'DEV_STATS_CLICKHOUSE_CLUSTER', default: 'unset', meaning: "a cluster of the servers' `<remote_servers>`: migrations create Replicated* tables `ON CLUSTER` and Distributed tables under the usual names (docs/clickhouse.md)" },
      { env: 'DEV_STATS_EMBEDDED_PATH', default: '`.infra/embedded-clickhouse`', range: 'a directory', meaning: "chdb's data directory (`DEV_STATS_STORE=embedded`)" },
    ],
  },
  {
    title: 'Batching, retries and parking',
    settings: [
      { env: 'DEV_STATS_BATCH_MAX_ROWS', meaning: 'a batch is inserted at this many records' },
      { env: 'DEV_STATS_FLUSH_INTERVAL_MS', meaning: 'a non-empty batch is inserted at the latest after this' },
      { env: 'DEV_STATS_FLUSH_SLOW_BATCH_MS', meaning: "a batch that, at the rate it has filled so far, would not reach `DEV_STATS_BATCH_MAX_ROWS` within this long is inserted at the next multiple of this long on the process's clock: a low-rate consumer's records are stored within about this long instead of `DEV_STATS_FLUSH_INTERVAL_MS`, at one small insert per this long, and the consumers of a process inserting into one table at that moment share one insert (one part for ClickHouse to merge, docs/scale.md); consumers whose batches fill keep inserting full ones. `0`: never early" },
      { env: 'DEV_STATS_DIMENSION_FLUSH_INTERVAL_MS', meaning: "the same for the property-object consumer, when shorter: a view or funnel event naming an object created a moment before finds it stored sooner instead of being parked" },
      { env: 'DEV_STATS_FLUSHES_IN_FLIGHT', meaning: "sealed batches of one consumer inserting at once (commits stay in batch order)" },
      { env: 'DEV_STATS_SINK_BACKOFF_INITIAL_MS', meaning: 'first delay before retrying a failed insert or publish (doubling)' },
      { env: 'DEV_STATS_SINK_BACKOFF_MAX_MS', meaning: 'longest such delay' },
      { env: 'DEV_STATS_CATCHUP_MAX_ROWS', meaning: 'a consumer more than eight default batches behind its source topic doubles its batches, one flush after another, up to this many records, each inserted whole (fewer, larger parts for ClickHouse); back at `DEV_STATS_BATCH_MAX_ROWS` once caught up. At or below it: never grows' },
      { env: 'DEV_STATS_CATCHUP_MAX_BYTES', meaning: "such a batch's bound in bytes of record values, so that wide records cannot fill the heap" },
      { env: 'DEV_STATS_MEMORY_BUDGET_MB', meaning: 'record bytes this process holds at most, over every consumer: accepted and not yet committed, dead-lettered or parked, and parked copies waiting. A consumer that finds it spent pauses its partitions until commits brought it under half (above the parked copies; the property-object consumer never pauses); catch-up batches grow only while under half of it is in use. At least one batch of `DEV_STATS_CATCHUP_MAX_BYTES`' },
      { env: 'DEV_STATS_DIMENSION_CACHE_ENTRIES', meaning: "property-object paths kept in the process, least recently used dropped first; `0`: every lookup asks the store" },
      { env: 'DEV_STATS_DIMENSION_CACHE_MAX_AGE_SECONDS', meaning: "a path the store confirmed this recently is used without asking again; a version this process's property-object consumer stores replaces it at once, one stored by another instance is seen within this. `0`: every lookup asks the store (docs/ingest-rules.md, *Dimension cache*)" },
      { env: 'DEV_STATS_PARKING_MAX_ATTEMPTS', meaning: 'late-dimension attempts before `dimension-gap`, declared only once the dimension consumer is proven past the record (docs/ingest-rules.md)' },
      { env: 'DEV_STATS_PARKING_BACKOFF_INITIAL_MS', meaning: 'delay before the first parking attempt (doubling)' },
      { env: 'DEV_STATS_PARKING_BACKOFF_MAX_MS', meaning: 'longest delay between parking attempts' },
      { env: 'DEV_STATS_PARKING_GAP_MAX_WAIT_MS', meaning: "how long past its attempts a record waits for the dimension consumer's progress before an unproven `dimension-gap`" },
      { env: 'DEV_STATS_PARKING_MAX_IN_MEMORY', meaning: 'parked copies not yet due held in memory per consumer; beyond it the retry topic is paused' },
    ],
  },
  {
    title: 'HTTP, health and lag',
    settings: [
      { env: 'DEV_STATS_HTTP_HOST', meaning: 'address the HTTP server listens on' },
      { env: 'DEV_STATS_HTTP_PORT', meaning: '`/metrics`, `/health/live`, `/health/ready` and, with a read API key, `/v1/…`; `0`: no HTTP server' },
      { env: 'DEV_STATS_READY_MAX_RETRY_SECONDS', meaning: '`/health/ready` turns 503 when a consumer retries one batch longer than this' },
      { env: 'DEV_STATS_STOP_TIMEOUT_SECONDS', default: '`50`', range: '1–3600 seconds', meaning: '`start` only: how long a SIGTERM/SIGINT may take (finish the batches in flight, commit, leave the groups) before the service exits 1 anyway, committing nothing more: a backstop above the stop\'s own bounds with a server silent (docs/operations.md); keep it below the orchestrator\'s kill timeout' },
      { env: 'DEV_STATS_STARTUP_TIMEOUT_SECONDS', default: '`60`', range: '0–3600 seconds', meaning: '`start` only: how long a network fault on the way to the broker or the store at start-up (the connection reset, no answer, an answer cut short) is tried again, 1 s doubling to 15 s, before `start` exits 1 naming the address and the fault; `0`: never. Settings that are wrong (TLS, a certificate, a login) are not tried again' },
      { env: 'DEV_STATS_WORKERS', default: '`1`', range: '1–64, or `auto`', meaning: "`start` only, overridden by its `--workers`: ingest processes, each a member of every consumer group, behind the one HTTP endpoint of a primary that consumes nothing (metrics labelled `worker`, one readiness, the read API) and restarts a worker that dies. `auto`: one a CPU, no more than the most partitions of a topic the enabled consumers read. Above 1 needs Kafka and `DEV_STATS_STORE=clickhouse`; each worker has its own `DEV_STATS_MEMORY_BUDGET_MB` and heap (docs/scale.md)" },
      { env: 'DEV_STATS_LAG_INTERVAL_MS', meaning: 'how often consumer lag is read (the lag gauge and the dimension progress parked records wait on)' },
    ],
  },
  {
    title: 'Read API and read cache',
    settings: [
      { env: 'DEV_STATS_READ_API_JWT_SECRET', default: 'unset', range: 'at least 32 bytes', meaning: 'HS256 secret of the bearer tokens; or `DEV_STATS_READ_API_JWT_SECRET_FILE`. One key source turns the read API on' },
      { env: 'DEV_STATS_READ_API_JWT_SECRET_FILE', default: 'unset', range: 'a readable file', meaning: 'a file holding the HS256 secret (one trailing newline dropped)' },
      { env: 'DEV_STATS_READ_API_JWT_PUBLIC_KEY_FILE', default: 'unset', range: 'a PEM RSA or EC P-256 public key or certificate', meaning: 'RS256 / ES256 tokens' },
      { env: 'DEV_STATS_READ_API_JWKS_URL', default: 'unset', range: 'an http(s) URL', meaning: "the identity provider's JWKS (RS256/ES256 by `kid`), cached, refetched for an unknown `kid` (rotation)" },
      { env: 'DEV_STATS_READ_API_ISSUER', default: 'unset', range: 'text', meaning: 'checked when set: `iss` must equal it' },
      { env: 'DEV_STATS_READ_API_AUDIENCE', default: 'unset', range: 'text', meaning: 'checked when set: `aud` must contain it' },
      { env: 'DEV_STATS_READ_API_DEVELOPER_CLAIM', default: '`developer_id`', range: 'a claim name without spaces', meaning: 'the claim holding the DeveloperId (a GUID)' },
      { env: 'DEV_STATS_READ_API_CLOCK_TOLERANCE_SECONDS', default: '`30`', range: '0–300', meaning: 'skew allowed on `exp` and `nbf`' },
      { env: 'DEV_STATS_READ_API_RATE_LIMIT', default: '`60`', range: '0–1000000; `0`: no limit', meaning: 'requests one verified developer may make in a window, per instance; past it 429 with `Retry-After`. Set without a key: refused' },
      { env: 'DEV_STATS_READ_API_RATE_WINDOW_SECONDS', default: '`10`', range: '1–3600', meaning: "the rate limit's window" },
      { env: 'DEV_STATS_READ_API_CORS_ORIGINS', default: 'unset (no CORS)', range: 'a comma list of origins such as `https://dashboards.example.com`', meaning: 'pages of these origins may call the read API from a browser. Set without a key: refused' },
      { env: 'DEV_STATS_READ_MAX_CONCURRENT_QUERIES', meaning: 'reads reaching the store at once per instance (the read cache answers the rest); the next ones wait' },
      { env: 'DEV_STATS_READ_MAX_QUEUED_QUERIES', meaning: 'reads waiting for a turn; one more is refused (the read API answers 503 `overloaded` with `Retry-After`)' },
      { env: 'DEV_STATS_READ_QUERY_TIMEOUT_SECONDS', meaning: "the store ends a read, or a read cache's version probe, running longer (ClickHouse's `max_execution_time`; the read API answers 503 `read-timeout`)" },
      { env: 'DEV_STATS_READ_CACHE_ENTRIES', meaning: "read answers kept while the store's data behind them is unchanged; `0`: no cache" },
      { env: 'DEV_STATS_READ_CACHE_MAX_STALE_SECONDS', meaning: 'an answer the store confirmed this recently is served without asking again; `0`: every read asks' },
    ],
  },
  {
    title: "The repository's scripts",
    tooling: true,
    settings: [
      { env: 'DEV_STATS_INFRA_DIR', default: '`<repo>/.infra`', range: 'a directory', meaning: "where `npm run infra:up` and the test setups keep the local servers' data, logs and pid files" },
      { env: 'DEV_STATS_CACHE_DIR', default: '`~/.cache/dev-stats`', range: 'a directory', meaning: 'where the Kafka jars, Toxiproxy and the Schemathesis venv are cached between runs' },
      { env: 'DEV_STATS_CLUSTER_DIR', default: '`$TMPDIR/dev-stats-cluster`', range: 'a directory', meaning: "the local two-replica cluster's state (`scripts/clickhouse-cluster.sh`)" },
      { env: 'DEV_STATS_TEST_CLUSTER', default: '`dev_stats_local`', range: 'an identifier', meaning: "that cluster's name" },
      { env: 'DEV_STATS_SECURE_DIR', default: '`<repo>/.infra/secure`', range: 'a directory', meaning: "the TLS and SASL servers' state (`scripts/secure-infra.sh`)" },
      { env: 'DEV_STATS_BACKLOG_RECORDS', default: '`13000`', range: 'a whole number', meaning: "records per topic of the memory-budget test's backlog of wide records" },
      { env: 'DEV_STATS_CRASH_STORE', default: 'unset', range: '`file` or unset', meaning: "the crash test's store: a JSON-lines file instead of the ClickHouse server" },
    ],
  },
]
