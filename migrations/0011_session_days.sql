-- 0011: per-developer view and session states, day items and day summaries (issue 45,
-- domain/session-states.ts), kept by the session-days step after the serving rows (0008) and
-- before the offsets: a read of N whole days sums N summaries and the few sessions counted before
-- the period with a view inside it, never the developer's sessions (docs/clickhouse.md, Day summaries).
--   developer_view_states: every state a step computed of a (developer key, view): its winning
--     row's day (when the winner is the developer's), session, closed and duration, and version;
--   developer_session_views: the views any state named each session by (filled from the states);
--   developer_session_states: every state of a (developer, session): its view days, the latest
--     fact's duration and viewer kind, and version; all versions are kept, as the days an item was
--     counted on before are the days it may have left;
--   developer_spanning_sessions: the sessions any state counted with view days after their first;
--   developer_day_items: what each session (Kind 1) and view (Kind 2) adds to a day, under every
--     day any of its states counted it on (0 where it is no longer counted), the highest version wins;
--   developer_day_summaries: a developer's day, summed from its items, the highest version wins.
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
SETTINGS index_granularity = 32;

CREATE TABLE IF NOT EXISTS pin_dev_stats.developer_session_views
(
    KeyDeveloperId UUID,
    SessionId UUID,
    PropertyObjectViewId UUID
)
ENGINE = ReplacingMergeTree
ORDER BY (KeyDeveloperId, SessionId, PropertyObjectViewId)
SETTINGS index_granularity = 32;

CREATE MATERIALIZED VIEW IF NOT EXISTS pin_dev_stats.developer_session_views_mv
TO pin_dev_stats.developer_session_views
AS SELECT KeyDeveloperId, SessionId, PropertyObjectViewId
FROM pin_dev_stats.developer_view_states
WHERE SessionId != toUUID('00000000-0000-0000-0000-000000000000');

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
SETTINGS index_granularity = 32;

CREATE TABLE IF NOT EXISTS pin_dev_stats.developer_spanning_sessions
(
    KeyDeveloperId UUID,
    FirstDay Date,
    SessionId UUID
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(FirstDay)
ORDER BY (KeyDeveloperId, FirstDay, SessionId)
SETTINGS index_granularity = 32;

CREATE MATERIALIZED VIEW IF NOT EXISTS pin_dev_stats.developer_spanning_sessions_mv
TO pin_dev_stats.developer_spanning_sessions
AS SELECT KeyDeveloperId, FirstDay, SessionId
FROM pin_dev_stats.developer_session_states
WHERE length(ViewDays) > 1;

CREATE TABLE IF NOT EXISTS pin_dev_stats.developer_day_items
(
    KeyDeveloperId UUID,
    Day Date,
    Kind UInt8,
    ItemId UUID,
    Counted UInt8,
    Guest UInt8,
    IsClosed UInt8,
    DurationSeconds UInt32,
    Version UInt64
)
ENGINE = ReplacingMergeTree(Version)
PARTITION BY toYYYYMM(Day)
ORDER BY (KeyDeveloperId, Day, Kind, ItemId)
SETTINGS index_granularity = 32;

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
SETTINGS index_granularity = 32;
