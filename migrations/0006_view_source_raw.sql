-- 0006: the raw ViewSource wire value beside its classification (ViewSource: a configured known
-- value or 'Unknown'), so nothing is lost when a producer adds a source. NULL when absent.
-- 18.16 has no ADD COLUMN IF NOT EXISTS: the migrator treats "column already exists" of an
-- ADD COLUMN as applied, so a run interrupted before its record is repaired by the next run.
ALTER TABLE pin_dev_stats.property_object_view_facts ADD COLUMN ViewSourceRaw Nullable(String) AFTER ViewSource;
