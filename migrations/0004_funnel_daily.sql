-- 0004: daily funnel per property object. Several statements, each ending with ";" at the end
-- of a line, to be run in this order: target table, Null-engine insert table, materialized view.
-- Insert path: INSERT INTO funnel_events (FORMAT JSONEachRow, one row per stage event),
-- the MV folds rows into uniq states, funnel_events itself stores nothing (ENGINE = Null).
-- Read with uniqMerge(<Stage>) ... GROUP BY. The same BusinessKey in one stage counts once,
-- so re-delivered events are harmless. Idempotent (IF NOT EXISTS).
CREATE TABLE IF NOT EXISTS pin_dev_stats.funnel_daily
(
    DeveloperId UUID,
    ProjectId UUID,
    BuildingId UUID,
    LayoutGroupId UUID,
    LayoutId UUID,
    PropertyObjectId UUID,
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
ORDER BY (DeveloperId, EventDate, ProjectId, BuildingId, LayoutGroupId, LayoutId, PropertyObjectId);

CREATE TABLE IF NOT EXISTS pin_dev_stats.funnel_events
(
    DeveloperId UUID,
    ProjectId UUID,
    BuildingId UUID,
    LayoutGroupId UUID,
    LayoutId UUID,
    PropertyObjectId UUID,
    EventDate Date,
    Stage String,
    BusinessKey UUID
)
ENGINE = Null;

CREATE MATERIALIZED VIEW IF NOT EXISTS pin_dev_stats.funnel_daily_mv
TO pin_dev_stats.funnel_daily
AS SELECT
    DeveloperId,
    ProjectId,
    BuildingId,
    LayoutGroupId,
    LayoutId,
    PropertyObjectId,
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
    ProjectId,
    BuildingId,
    LayoutGroupId,
    LayoutId,
    PropertyObjectId,
    EventDate;
