-- 0007: funnel stage progress, written with each batch that has funnel rows (spec §8 freshness
-- read from the store by any process). Per stage and minute of IngestionTime the greatest lag;
-- ReplacingMergeTree(LagSeconds) keeps that row per (Stage, Minute) after merges, and reads take
-- the greatest lag of each stage's newest minute. About 1440 rows a day per stage.
-- Statements end with ";" at the end of a line. Idempotent (IF NOT EXISTS).
CREATE TABLE IF NOT EXISTS pin_dev_stats.funnel_progress
(
    Stage String,
    Minute DateTime('UTC'),
    LagSeconds UInt32
)
ENGINE = ReplacingMergeTree(LagSeconds)
PARTITION BY toYYYYMM(Minute)
ORDER BY (Stage, Minute);
