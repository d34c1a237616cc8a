-- x-reminders from an "expected record" source (docs/schema.md): a publication (a form, …) expects a record
-- from each of its organisations; one reminder per publication, type and expected organisation (or person)
-- that has none in the required state. `expected_key` is that organisation (or person), 0 for the reminders
-- of a record's own dates; `record_name` and `link` are the publication's, as its source names them.
ALTER TABLE reminders ADD COLUMN expected_key integer NOT NULL DEFAULT 0;
ALTER TABLE reminders ADD COLUMN record_name text;
ALTER TABLE reminders ADD COLUMN link text;
ALTER TABLE reminders DROP CONSTRAINT reminders_module_record_id_type_key;
ALTER TABLE reminders ADD CONSTRAINT reminders_module_record_id_type_key UNIQUE (module, record_id, type, expected_key);
