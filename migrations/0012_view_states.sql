-- 0012: per-developer view states (issue 45, domain/session-states.ts), the level below 0011's
-- session states: a session state reads the states of its views, not the developer's view rows,
-- and a day summary the states counted on the day, so that the session-days step costs what a
-- batch touched.
--   developer_view_states: every state a step computed of a (developer key, view): its winning
--     row's day (when the winner is the developer's), session, closed and duration, and version;
--   developer_session_views: the views any state named each session by (filled from the states);
--   developer_view_candidates: the views any state counted on a day (filled from the states).
-- Statements end with ";" at the end of a line. Idempotent (IF NOT EXISTS).
CREATE TABLE IF NOT EXISTS pin_dev_stats.developer_view_states
(
    KeyDeveloperId UUID,
    PropertyObjectViewId UUID,
    Counted UInt8,
    Day Date,
    SessionId UUID,
    IsClosed UInt8,
    DurationSeconds UInt32,
    Version UInt64
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(Day)
ORDER BY (KeyDeveloperId, PropertyObjectViewId, Version)
SETTINGS index_granularity = 256;

CREATE TABLE IF NOT EXISTS pin_dev_stats.developer_session_views
(
    KeyDeveloperId UUID,
    SessionId UUID,
    PropertyObjectViewId UUID
)
ENGINE = ReplacingMergeTree
ORDER BY (KeyDeveloperId, SessionId, PropertyObjectViewId)
SETTINGS index_granularity = 256;

CREATE MATERIALIZED VIEW IF NOT EXISTS pin_dev_stats.developer_session_views_mv
TO pin_dev_stats.developer_session_views
AS SELECT KeyDeveloperId, SessionId, PropertyObjectViewId
FROM pin_dev_stats.developer_view_states
WHERE SessionId != toUUID('00000000-0000-0000-0000-000000000000');

CREATE TABLE IF NOT EXISTS pin_dev_stats.developer_view_candidates
(
    KeyDeveloperId UUID,
    Day Date,
    PropertyObjectViewId UUID
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(Day)
ORDER BY (KeyDeveloperId, Day, PropertyObjectViewId)
SETTINGS index_granularity = 256;

CREATE MATERIALIZED VIEW IF NOT EXISTS pin_dev_stats.developer_view_candidates_mv
TO pin_dev_stats.developer_view_candidates
AS SELECT KeyDeveloperId, Day, PropertyObjectViewId
FROM pin_dev_stats.developer_view_states
WHERE Counted = 1;
