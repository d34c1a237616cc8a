-- A to-do its recipient ticked off by hand while its record still waits for them (issue 43.4): the record's
-- next step that leaves it waiting opens it again; a to-do a step completed is never `dismissed`.
ALTER TABLE msg_todo ADD COLUMN dismissed boolean NOT NULL DEFAULT false;
