-- A snapshot writes up to a row per record: one index fewer to keep (reading a snapshot scans its module's
-- versions through the primary key's leading column).
DROP INDEX IF EXISTS stat_snapshot_version_range_idx;
