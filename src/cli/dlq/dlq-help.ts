export const DLQ_HELP = `dev-stats-ingest dlq <command> [options]

Dead letters are records a consumer could not ingest (bad payload, a rule broken, a property
object whose dimension never arrived, …). Each sits on <source topic>.dlq with its original key,
value and headers plus dlq-reason, dlq-detail, dlq-source-topic/-partition/-offset,
dlq-consumer-group and dlq-failed-at. After the cause is fixed, replay them.

Commands
  summary [--topic T]
      Dead letters per source topic and reason, with the oldest and newest dlq-failed-at.
      Without --topic: every consumer's source topic.
  show --topic T [--reason R] [--limit N]
      The first N (default 20) dead letters of T: dlq-* headers, the other headers, key and the
      payload as it is.
  replay [--topic T] [--reason R] [--since ISO] [--until ISO] [--dry-run] [--rate N]
      Re-publishes the matching dead letters to their source topic with their original key,
      value and headers (the dlq-* headers removed). Without --topic: every source topic.
      --since/--until filter on dlq-failed-at (since inclusive, until exclusive), with the zone, e.g.
      --since 2026-11-30T00:00:00Z. --dry-run only counts what would be replayed. --rate N
      publishes at most N records per second (spares the consumers a flood).
  help, --help
      This text.

Safe to run twice. A replay has its own consumer group per source topic and filter
(dev-stats-dlq-replay.<topic>.<reason|all>[.<since>-<until>]); it commits after every 100
records the broker acknowledged. Run the same replay again and it goes on where it stopped (after Ctrl-C or a
crash) or finds nothing left; at most 100 records are published twice, and the consumers collapse
duplicates (FactId, unique business keys). A record dead-lettered again during a replay waits
for the next run. summary and show commit nothing.

Typical use, after deploying the fix or publishing the missing dimension:
  dev-stats-ingest dlq summary
  dev-stats-ingest dlq show --topic pin.favorites.favorite-added.v1 --reason dimension-gap --limit 5
  dev-stats-ingest dlq replay --reason dimension-gap --dry-run
  dev-stats-ingest dlq replay --reason dimension-gap

Environment (as for dev-stats-ingest start)
  DEV_STATS_BROKER         kafkajs (default here) or confluent (librdkafka)
  DEV_STATS_KAFKA_BROKERS  bootstrap servers (default 127.0.0.1:19092)
  DEV_STATS_TOPIC_<KEY>    a consumer's source topic when it is not the default
  DEV_STATS_LOG_LEVEL      client log level (default error)

Exit codes: 0 done, 1 failed (message on stderr), 2 wrong usage or configuration.`
