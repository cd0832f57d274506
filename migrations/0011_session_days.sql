-- 0011: per-developer session states and day summaries (issue 45, domain/session-states.ts), for
-- the session-days step to keep after the serving rows (0008) and before the offsets (the ingest
-- does not run it yet; docs/clickhouse.md, Day summaries): a read of N whole days sums
-- N summaries and the few sessions counted before the period with a view inside it, never the
-- developer's sessions.
--   developer_session_states: every state a step computed of a (developer, session), each with its
--     version (the rows it read); all versions are kept, as the days a session was counted on
--     before are the days it may have left;
--   developer_session_candidates / developer_spanning_sessions: the sessions any state counted on
--     a day (all, and those with view days after it), filled from the states;
--   developer_day_summaries: a developer's day, the highest version wins.
-- Statements end with ";" at the end of a line. Idempotent (IF NOT EXISTS).
CREATE TABLE IF NOT EXISTS pin_dev_stats.developer_session_states
(
    KeyDeveloperId UUID,
    SessionId UUID,
    FirstDay Date,
    ViewDays Array(Date),
    DurationSeconds UInt32,
    ViewerKind String,
    Version UInt64
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(FirstDay)
ORDER BY (KeyDeveloperId, SessionId, Version)
SETTINGS index_granularity = 256;

CREATE TABLE IF NOT EXISTS pin_dev_stats.developer_session_candidates
(
    KeyDeveloperId UUID,
    FirstDay Date,
    SessionId UUID
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(FirstDay)
ORDER BY (KeyDeveloperId, FirstDay, SessionId)
SETTINGS index_granularity = 256;

CREATE MATERIALIZED VIEW IF NOT EXISTS pin_dev_stats.developer_session_candidates_mv
TO pin_dev_stats.developer_session_candidates
AS SELECT KeyDeveloperId, FirstDay, SessionId
FROM pin_dev_stats.developer_session_states
WHERE notEmpty(ViewDays);

CREATE TABLE IF NOT EXISTS pin_dev_stats.developer_spanning_sessions
(
    KeyDeveloperId UUID,
    FirstDay Date,
    SessionId UUID
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(FirstDay)
ORDER BY (KeyDeveloperId, FirstDay, SessionId)
SETTINGS index_granularity = 256;

CREATE MATERIALIZED VIEW IF NOT EXISTS pin_dev_stats.developer_spanning_sessions_mv
TO pin_dev_stats.developer_spanning_sessions
AS SELECT KeyDeveloperId, FirstDay, SessionId
FROM pin_dev_stats.developer_session_states
WHERE length(ViewDays) > 1;

CREATE TABLE IF NOT EXISTS pin_dev_stats.developer_day_summaries
(
    KeyDeveloperId UUID,
    Day Date,
    Sessions UInt64,
    GuestSessions UInt64,
    UserSessions UInt64,
    TotalDurationSeconds UInt64,
    MinDurationSeconds UInt32,
    MaxDurationSeconds UInt32,
    Views UInt64,
    ClosedViews UInt64,
    TotalViewSeconds UInt64,
    Version UInt64
)
ENGINE = ReplacingMergeTree(Version)
PARTITION BY toYYYYMM(Day)
ORDER BY (KeyDeveloperId, Day)
SETTINGS index_granularity = 256;
