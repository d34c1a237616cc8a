-- Party dues (issue 25.4): online payment is a school's choice. The provider (a registered payment
-- provider's id; NULL: online payment off, the default) and the largest single online payment, in cents
-- (NULL: the built-in limit).
ALTER TABLE dues_settings ADD COLUMN online_provider text;
ALTER TABLE dues_settings ADD COLUMN online_max_cents bigint CHECK (online_max_cents > 0);
