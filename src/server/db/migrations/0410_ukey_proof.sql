-- Issue 38.9: the cadre uKey is proved to the server, not only in the browser. An administrator registers
-- the public key of each account's uKey; a session is marked once the key signed a challenge of the server.
CREATE TABLE IF NOT EXISTS ukey_keys (
  user_id       integer PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  device_id     text NOT NULL,
  public_key    text NOT NULL,
  registered_by integer REFERENCES users (id) ON DELETE SET NULL,
  registered_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS ukey_sessions (
  session_id  integer PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
  device_id   text NOT NULL,
  verified_at timestamptz NOT NULL DEFAULT now()
);
