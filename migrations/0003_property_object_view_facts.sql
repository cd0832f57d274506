-- 0003: one row per property-object view fact (opened / closed views).
-- Duplicates collapse on (DeveloperId, PropertyObjectViewId, FactId), greatest IngestionTime wins.
-- Statements end with ";" at the end of a line. Idempotent (IF NOT EXISTS).
CREATE TABLE IF NOT EXISTS pin_dev_stats.property_object_view_facts
(
    FactId String,
    SourceEventId String,
    PropertyObjectViewId UUID,
    PropertyObjectId UUID,
    DeveloperId UUID,
    ProjectId UUID,
    BuildingId UUID,
    LayoutGroupId UUID,
    LayoutId UUID,
    SessionId UUID,
    AnonymousId UUID,
    UserId Nullable(UUID),
    ViewerKind String,
    ViewSource String,
    IsClosed UInt8,
    ViewedAt DateTime('UTC'),
    LastActivityAt Nullable(DateTime('UTC')),
    DurationSeconds Nullable(UInt32),
    EventTime DateTime('UTC'),
    IngestionTime DateTime('UTC')
)
ENGINE = ReplacingMergeTree(IngestionTime)
PARTITION BY toYYYYMM(EventTime)
ORDER BY (DeveloperId, PropertyObjectViewId, FactId);
