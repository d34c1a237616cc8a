-- The holiday calendar (module holiday-calendar) is seeded once with the published national schedule:
-- this marker asks the first server start to write it (src/server/domain/calendar/index.ts).
INSERT INTO app_meta (key, value) VALUES ('holiday_calendar_seed', '"pending"') ON CONFLICT (key) DO NOTHING;
