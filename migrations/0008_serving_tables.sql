-- 0008: developer-keyed serving tables (spec §8, cost of a read) and the link tables the ingest
-- looks them up in. A developer's read touches only rows under its KeyDeveloperId:
--   developer_view_facts: every row of a view under every developer any row of that view has, so
--     the winning row (domain/view-merge.ts) is decided among the developer's own rows;
--   developer_session_facts: every session fact under every developer whose view rows name it.
-- The ingest writes both after each batch's facts and before its offsets (serving-fact-store.ts),
-- with lookups in the link tables, which the materialized views below fill from the facts:
--   view_links: a view fact by the UTC day of its EventTime (ViewedAt) and PropertyObjectViewId;
--   session_view_links: the developers whose view rows name a session, by day and SessionId;
--   session_links: a session fact under every UTC day of [StartedAt - 1 h, LastActivityAt + 1 h],
--     at most 32 days (domain/serving-links.ts holds the same rule; a test keeps them equal).
-- A redelivered view event is enriched again and may name another developer than its first row:
-- the view tables keep a row per (FactId, DeveloperId), as property_object_view_facts does.
-- funnel_developer_daily: the funnel per developer and day, for reads without hierarchy filters.
-- Granules are small (1,024 rows; 128 for a developer's days of funnel): a developer's rows in a
-- monthly partition are a few granules, not the 8,192 rows a read would otherwise take each time.
-- The link tables are needed only as far back as a fact can arrive late; old monthly partitions
-- can be dropped. Existing facts: `npm run serving:backfill`. Statements end with ";" at the end
-- of a line. Idempotent (IF NOT EXISTS).
CREATE TABLE IF NOT EXISTS pin_dev_stats.developer_view_facts
(
    KeyDeveloperId UUID,
    PropertyObjectViewId UUID,
    FactId String,
    DeveloperId UUID,
    SessionId UUID,
    IsClosed UInt8,
    DurationSeconds UInt32,
    EventTime DateTime('UTC'),
    IngestionTime DateTime('UTC')
)
ENGINE = ReplacingMergeTree(IngestionTime)
PARTITION BY toYYYYMM(EventTime)
ORDER BY (KeyDeveloperId, PropertyObjectViewId, FactId, DeveloperId)
SETTINGS index_granularity = 1024;

CREATE TABLE IF NOT EXISTS pin_dev_stats.developer_session_facts
(
    KeyDeveloperId UUID,
    SessionId UUID,
    FactId String,
    DurationSeconds UInt32,
    ViewerKind String,
    EventTime DateTime('UTC'),
    IngestionTime DateTime('UTC')
)
ENGINE = ReplacingMergeTree(IngestionTime)
PARTITION BY toYYYYMM(EventTime)
ORDER BY (KeyDeveloperId, SessionId, FactId)
SETTINGS index_granularity = 1024;

CREATE TABLE IF NOT EXISTS pin_dev_stats.view_links
(
    Day Date,
    PropertyObjectViewId UUID,
    FactId String,
    DeveloperId UUID,
    SessionId UUID,
    IsClosed UInt8,
    DurationSeconds UInt32,
    EventTime DateTime('UTC'),
    IngestionTime DateTime('UTC')
)
ENGINE = ReplacingMergeTree(IngestionTime)
PARTITION BY toYYYYMM(Day)
ORDER BY (Day, PropertyObjectViewId, FactId, DeveloperId)
SETTINGS index_granularity = 1024;

CREATE TABLE IF NOT EXISTS pin_dev_stats.session_view_links
(
    Day Date,
    SessionId UUID,
    DeveloperId UUID
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(Day)
ORDER BY (Day, SessionId, DeveloperId)
SETTINGS index_granularity = 1024;

CREATE TABLE IF NOT EXISTS pin_dev_stats.session_links
(
    Day Date,
    SessionId UUID,
    FactId String,
    DurationSeconds UInt32,
    ViewerKind String,
    EventTime DateTime('UTC'),
    IngestionTime DateTime('UTC')
)
ENGINE = ReplacingMergeTree(IngestionTime)
PARTITION BY toYYYYMM(Day)
ORDER BY (Day, SessionId, FactId)
SETTINGS index_granularity = 1024;

CREATE MATERIALIZED VIEW IF NOT EXISTS pin_dev_stats.view_links_mv
TO pin_dev_stats.view_links
AS SELECT
    toDate(EventTime) AS Day,
    PropertyObjectViewId,
    FactId,
    DeveloperId,
    SessionId,
    IsClosed,
    ifNull(DurationSeconds, toUInt32(0)) AS DurationSeconds,
    EventTime,
    IngestionTime
FROM pin_dev_stats.property_object_view_facts;

-- An open view without a SessionId carries the empty id, which no session fact has: not linked.
CREATE MATERIALIZED VIEW IF NOT EXISTS pin_dev_stats.session_view_links_mv
TO pin_dev_stats.session_view_links
AS SELECT
    toDate(EventTime) AS Day,
    SessionId,
    DeveloperId
FROM pin_dev_stats.property_object_view_facts
WHERE SessionId != toUUID('00000000-0000-0000-0000-000000000000');

CREATE MATERIALIZED VIEW IF NOT EXISTS pin_dev_stats.session_links_mv
TO pin_dev_stats.session_links
AS SELECT
    toDate('1970-01-01') + (intDiv(greatest(toUInt64(toUInt32(StartedAt)), 3600) - 3600, 86400) + arrayJoin(range(toUInt64(least(32,
        intDiv(greatest(toUInt64(toUInt32(LastActivityAt)), toUInt64(toUInt32(StartedAt))) + 3600, 86400)
        - intDiv(greatest(toUInt64(toUInt32(StartedAt)), 3600) - 3600, 86400) + 1))))) AS Day,
    SessionId,
    FactId,
    DurationSeconds,
    ViewerKind,
    EventTime,
    IngestionTime
FROM pin_dev_stats.session_facts;

-- The funnel per developer and day, every stage's uniq state over all of the developer's property
-- objects: a read without hierarchy filters merges one row per day instead of one per property
-- object and day. Fed from funnel_events beside funnel_daily_mv (the same states, grouped wider).
CREATE TABLE IF NOT EXISTS pin_dev_stats.funnel_developer_daily
(
    DeveloperId UUID,
    EventDate Date,
    Views AggregateFunction(uniq, UUID),
    Favorites AggregateFunction(uniq, UUID),
    Selections AggregateFunction(uniq, UUID),
    Leads AggregateFunction(uniq, UUID),
    Bookings AggregateFunction(uniq, UUID),
    BookingsPaid AggregateFunction(uniq, UUID),
    Deals AggregateFunction(uniq, UUID),
    DealsCompleted AggregateFunction(uniq, UUID)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(EventDate)
ORDER BY (DeveloperId, EventDate)
SETTINGS index_granularity = 128;

CREATE MATERIALIZED VIEW IF NOT EXISTS pin_dev_stats.funnel_developer_daily_mv
TO pin_dev_stats.funnel_developer_daily
AS SELECT
    DeveloperId,
    EventDate,
    uniqStateIf(BusinessKey, Stage = 'Views') AS Views,
    uniqStateIf(BusinessKey, Stage = 'Favorites') AS Favorites,
    uniqStateIf(BusinessKey, Stage = 'Selections') AS Selections,
    uniqStateIf(BusinessKey, Stage = 'Leads') AS Leads,
    uniqStateIf(BusinessKey, Stage = 'Bookings') AS Bookings,
    uniqStateIf(BusinessKey, Stage = 'BookingsPaid') AS BookingsPaid,
    uniqStateIf(BusinessKey, Stage = 'Deals') AS Deals,
    uniqStateIf(BusinessKey, Stage = 'DealsCompleted') AS DealsCompleted
FROM pin_dev_stats.funnel_events
GROUP BY
    DeveloperId,
    EventDate;

-- What `npm run serving:backfill` has done: one row per step and chunk, so a second run resumes.
CREATE TABLE IF NOT EXISTS pin_dev_stats.serving_backfill
(
    Step String,
    Chunk Date,
    DoneAt DateTime('UTC')
)
ENGINE = ReplacingMergeTree
ORDER BY (Step, Chunk);
