-- Spec §9: the terminal a session was opened from, PC 1 or MOBILE 2 (issue 31: the mobile terminal).
ALTER TABLE sessions ADD COLUMN IF NOT EXISTS terminal smallint NOT NULL DEFAULT 1;
