-- x-reminders `escalate` (docs/schema.md): a reminder still on at its due date + `after` is escalated on the same
-- row (its receivers grow by the escalation's); `escalated_due` is the due date it was escalated for, so the
-- escalation message goes out once per due date (as `announced_due` does for the announcement).
ALTER TABLE reminders ADD COLUMN escalated_due date;
