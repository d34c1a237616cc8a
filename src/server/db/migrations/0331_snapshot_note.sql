-- A snapshot's note: what it holds when that is not simply "every record as it was" (the demo's year-end
-- roster rebuilt from the members' dates).
ALTER TABLE stat_snapshot ADD COLUMN note text NOT NULL DEFAULT '';
