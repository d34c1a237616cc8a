-- A password an administrator issued (new account, reset, opening): random, valid until this moment, and
-- to be changed at the first login. NULL once the user has set their own.
ALTER TABLE users ADD COLUMN password_expires_at timestamptz;
