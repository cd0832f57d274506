-- 0012: day records of session metrics (domain/day-records.ts). The serving step raises, after the
-- serving rows and before the offsets, per-developer write counts; a read of whole days uses the
-- stored record of each day whose counts are unchanged since it was computed, and computes and
-- stores the others from the serving rows (docs/clickhouse.md, Day records).
--   developer_day_writes: rows written under a developer's key, a view row on its EventTime day, a
--     session row on every day of its session's span (on its views' days when written for them),
--     and per source (views, sessions, funnel) the developer's total on 1970-01-01: the read
--     cache's version of the developer's answers;
--   developer_day_records: a developer-day's views, the sessions whose first view day it is and
--     the sessions with a view on it that began earlier, stamped with the counts it was computed
--     at over its window (WindowFirst - 1 to Day + 1 for views, Day for sessions); the one
--     computed last (Version: the time it was computed) wins.
-- Statements end with ";" at the end of a line. Idempotent (IF NOT EXISTS).
CREATE TABLE IF NOT EXISTS pin_dev_stats.developer_day_writes
(
    KeyDeveloperId UUID,
    Day Date,
    Source String,
    Rows UInt64
)
ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(Day)
ORDER BY (KeyDeveloperId, Day, Source)
SETTINGS index_granularity = 256;

CREATE TABLE IF NOT EXISTS pin_dev_stats.developer_day_records
(
    KeyDeveloperId UUID,
    Day Date,
    WindowFirst Date,
    ViewWrites UInt64,
    SessionWrites UInt64,
    Removals String,
    Version UInt64,
    Sessions UInt64,
    GuestSessions UInt64,
    UserSessions UInt64,
    TotalDurationSeconds UInt64,
    MinDurationSeconds UInt32,
    MaxDurationSeconds UInt32,
    Views UInt64,
    ClosedViews UInt64,
    TotalViewSeconds UInt64,
    CarrySessionIds Array(UUID),
    CarryFirstDays Array(Date),
    CarryDurationSeconds Array(UInt32),
    CarryViewerKinds Array(String)
)
ENGINE = ReplacingMergeTree(Version)
PARTITION BY toYYYYMM(Day)
ORDER BY (KeyDeveloperId, Day)
SETTINGS index_granularity = 256;
