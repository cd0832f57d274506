-- 0005: dimension tables (latest name and parents per id). Six statements, each ending with
-- ";" at the end of a line. ReplacingMergeTree(Version) keeps the row with the greatest Version
-- per Id, Version = UpsertedAt in epoch microseconds (DateTime has only second precision).
-- Read with argMax(..., Version) per Id, never FINAL. Idempotent (IF NOT EXISTS).

CREATE TABLE IF NOT EXISTS pin_dev_stats.dim_developer
(
    Id UUID,
    Name Nullable(String),
    UpsertedAt DateTime('UTC'),
    Version UInt64,
    IngestionTime DateTime('UTC')
)
ENGINE = ReplacingMergeTree(Version)
ORDER BY Id;

CREATE TABLE IF NOT EXISTS pin_dev_stats.dim_project
(
    Id UUID,
    DeveloperId UUID,
    Name Nullable(String),
    UpsertedAt DateTime('UTC'),
    Version UInt64,
    IngestionTime DateTime('UTC')
)
ENGINE = ReplacingMergeTree(Version)
ORDER BY Id;

CREATE TABLE IF NOT EXISTS pin_dev_stats.dim_building
(
    Id UUID,
    DeveloperId UUID,
    ProjectId UUID,
    Name Nullable(String),
    UpsertedAt DateTime('UTC'),
    Version UInt64,
    IngestionTime DateTime('UTC')
)
ENGINE = ReplacingMergeTree(Version)
ORDER BY Id;

CREATE TABLE IF NOT EXISTS pin_dev_stats.dim_layout_group
(
    Id UUID,
    DeveloperId UUID,
    ProjectId UUID,
    BuildingId UUID,
    Name Nullable(String),
    UpsertedAt DateTime('UTC'),
    Version UInt64,
    IngestionTime DateTime('UTC')
)
ENGINE = ReplacingMergeTree(Version)
ORDER BY Id;

CREATE TABLE IF NOT EXISTS pin_dev_stats.dim_layout
(
    Id UUID,
    DeveloperId UUID,
    ProjectId UUID,
    BuildingId UUID,
    LayoutGroupId UUID,
    Name Nullable(String),
    UpsertedAt DateTime('UTC'),
    Version UInt64,
    IngestionTime DateTime('UTC')
)
ENGINE = ReplacingMergeTree(Version)
ORDER BY Id;

CREATE TABLE IF NOT EXISTS pin_dev_stats.dim_property_object
(
    Id UUID,
    DeveloperId UUID,
    ProjectId UUID,
    BuildingId UUID,
    LayoutGroupId UUID,
    LayoutId UUID,
    Name Nullable(String),
    UpsertedAt DateTime('UTC'),
    Version UInt64,
    IngestionTime DateTime('UTC')
)
ENGINE = ReplacingMergeTree(Version)
ORDER BY Id;
