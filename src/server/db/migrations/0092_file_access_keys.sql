-- Issue 12: file URLs carry an unguessable key (/api/file/view?id=<key>) instead of the sequential id, so
-- nobody can walk through the files by counting. Existing files get a random key (gen_random_uuid uses
-- the server's strong random source; a volatile default is evaluated for each existing row).
ALTER TABLE files ADD COLUMN access_key text NOT NULL DEFAULT replace(gen_random_uuid()::text, '-', '');
CREATE UNIQUE INDEX files_access_key_idx ON files (access_key);

-- References stored by number become references by key: avatars, and file fields of module records
-- (`/api/file/view?id=<n>&name=...` in any text column of a module table).
UPDATE users u SET avatar = '/api/file/view?id=' || f.access_key
FROM files f WHERE u.avatar = '/api/file/view?id=' || f.id;

DO $$
DECLARE c record;
BEGIN
  FOR c IN
    SELECT table_name, column_name FROM information_schema.columns
    WHERE table_schema = current_schema() AND table_name LIKE 'm\_%' AND data_type = 'text'
  LOOP
    EXECUTE format(
      'UPDATE %I t SET %I = regexp_replace(t.%I, ''^/api/file/view\?id=\d+'', ''/api/file/view?id='' || f.access_key) '
      'FROM files f WHERE t.%I ~ ''^/api/file/view\?id=\d+(&|$)'' AND f.id = substring(t.%I from ''^/api/file/view\?id=(\d+)'')::int',
      c.table_name, c.column_name, c.column_name, c.column_name, c.column_name);
  END LOOP;
END $$;
