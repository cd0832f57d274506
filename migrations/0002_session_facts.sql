-- 0002: one row per session fact. Duplicates (re-delivered Kafka messages) collapse on
-- (SessionId, FactId), keeping the row with the greatest IngestionTime.
-- Statements end with ";" at the end of a line. Idempotent (IF NOT EXISTS).
CREATE TABLE IF NOT EXISTS pin_dev_stats.session_facts
(
    FactId String,
    SourceEventId String,
    SessionId UUID,
    AnonymousId UUID,
    UserId Nullable(UUID),
    ViewerKind String,
    TenantId UUID,
    BrandId Nullable(UUID),
    DeveloperId Nullable(UUID),
    EventTime DateTime('UTC'),
    StartedAt DateTime('UTC'),
    LastActivityAt DateTime('UTC'),
    DurationSeconds UInt32,
    IngestionTime DateTime('UTC')
)
ENGINE = ReplacingMergeTree(IngestionTime)
PARTITION BY toYYYYMM(EventTime)
ORDER BY (SessionId, FactId);
