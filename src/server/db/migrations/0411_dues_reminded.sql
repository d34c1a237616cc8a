-- Issue 38.14: 提醒缴费 reminds each member at most once a day (four identical reminders in 30 s before).
-- One row per member: the day of the last reminder and who sent it.
CREATE TABLE IF NOT EXISTS dues_reminded (
  member_id   integer PRIMARY KEY,
  reminded_on date NOT NULL,
  reminded_by integer REFERENCES users (id) ON DELETE SET NULL
);
