-- 0009: how many rows have been written under each developer's key into the serving tables, by
-- read source. The read cache keys a developer's answers by these counts: every insert of a
-- developer's rows raises its count (after the rows are visible), another developer's insert or a
-- merge (which never changes an answer) leaves it, and reading it costs a few rows per developer
-- instead of a scan of the developer's rows. Statements end with ";" at the end of a line.
CREATE TABLE IF NOT EXISTS pin_dev_stats.developer_writes
(
    KeyDeveloperId UUID,
    Source String,
    Rows UInt64
)
ENGINE = SummingMergeTree
ORDER BY (KeyDeveloperId, Source);

CREATE MATERIALIZED VIEW IF NOT EXISTS pin_dev_stats.developer_view_writes_mv
TO pin_dev_stats.developer_writes
AS SELECT
    KeyDeveloperId,
    'views' AS Source,
    count() AS Rows
FROM pin_dev_stats.developer_view_facts
GROUP BY KeyDeveloperId;

CREATE MATERIALIZED VIEW IF NOT EXISTS pin_dev_stats.developer_session_writes_mv
TO pin_dev_stats.developer_writes
AS SELECT
    KeyDeveloperId,
    'sessions' AS Source,
    count() AS Rows
FROM pin_dev_stats.developer_session_facts
GROUP BY KeyDeveloperId;

-- funnel_events feeds funnel_daily and funnel_developer_daily, both of the funnel's reads
CREATE MATERIALIZED VIEW IF NOT EXISTS pin_dev_stats.developer_funnel_writes_mv
TO pin_dev_stats.developer_writes
AS SELECT
    DeveloperId AS KeyDeveloperId,
    'funnel' AS Source,
    count() AS Rows
FROM pin_dev_stats.funnel_events
GROUP BY DeveloperId;
