-- Study progress (issue 25.1): how far a learner's furthest point ran ahead of the wall clock at the last
-- report, in seconds. The tolerance is granted once, not per report: what a report used of it stays
-- used until real time catches up (src/shared/pschool/progress.ts).
ALTER TABLE pschool_progress ADD COLUMN lead double precision NOT NULL DEFAULT 0;
