-- 0010: developer_writes (0009) is written by the ingest after the data's inserts returned
-- (ServingIndex.written), no longer by materialized views: a view on funnel_events is a sibling
-- of the views filling funnel_daily and funnel_developer_daily, and ClickHouse orders sibling
-- views by name, so a probe between them saw a new count and read the old data. The backfill
-- raises the counts of the developers it wrote for. Statements end with ";" at the end of a line.
DROP TABLE IF EXISTS pin_dev_stats.developer_view_writes_mv;

DROP TABLE IF EXISTS pin_dev_stats.developer_session_writes_mv;

DROP TABLE IF EXISTS pin_dev_stats.developer_funnel_writes_mv;
