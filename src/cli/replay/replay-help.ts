export const REPLAY_HELP = `dev-stats-ingest replay --consumer <KEY|all> --from <ISO-8601 time> [--to-latest] [--dry-run]

Re-ingests a consumer's source topic from a point in time: moves the consumer's group, on every
partition of its source topic, to the first record that arrived in Kafka at or after the time
(Kafka's ListOffsets by timestamp). The next start re-reads from there. Re-reading is safe
(spec §10): facts collapse by FactId, funnel stages by their business key, dimensions by version.

  --consumer KEY   a key of the consumer registry (SESSION_ENDED, LEAD_CREATED, FAVORITES, …),
                   several as KEY1,KEY2, or all
  --from TIME      e.g. 2026-11-01T00:00:00Z (the zone is required)
  --dry-run        print per partition the committed offset, the new one and how many records
                   would be read again; change nothing
  --to-latest      also move partitions forward: where the group has not yet reached the time,
                   the records before it are skipped (never done without this flag). With a time
                   after the newest record, this moves the group to the latest offset.

Refused (exit 1, naming the group and its members' client ids and hosts) while a group has
active members: stop the service first. Every group is checked before any is moved.
The retry topic <group>.retry is left as it is: its parked copies are found again by re-reading
the source, and rewinding it would dead-letter old dimension gaps a second time.

Environment (as for dev-stats-ingest start)
  DEV_STATS_BROKER         kafkajs (default here) or confluent (librdkafka)
  DEV_STATS_KAFKA_BROKERS  bootstrap servers (default 127.0.0.1:19092), and the security settings
  DEV_STATS_TOPIC_<KEY> / DEV_STATS_GROUP_<KEY>   a consumer's topic / group when not the default
`
