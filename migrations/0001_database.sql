-- 0001: database and migration bookkeeping.
-- Format of every file in migrations/: one or more statements, each terminated by ";" at the
-- end of a line (split on a semicolon followed by a newline). Lines starting with "--" are comments.
-- Every statement is CREATE ... IF NOT EXISTS, so re-running a file is harmless.
-- Verified on ClickHouse 18.16.1 (Debian server, HTTP) and chdb 3.4 (ClickHouse 26.x embedded).
CREATE DATABASE IF NOT EXISTS pin_dev_stats;

CREATE TABLE IF NOT EXISTS pin_dev_stats.schema_migrations
(
    Version String,
    AppliedAt DateTime('UTC')
)
ENGINE = ReplacingMergeTree
ORDER BY Version;
