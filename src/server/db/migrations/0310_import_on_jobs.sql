-- One job mechanism (issue 29): imports run on the generic job runner. `runtime_jobs` holds every job's
-- state, progress, heartbeat, owner and times; `import_jobs` keeps only what an import adds (its module,
-- mode, file, rows imported, row errors and error report), keyed by its job.
ALTER TABLE runtime_jobs ADD COLUMN started_at timestamptz;
UPDATE runtime_jobs SET started_at = created_at;

ALTER TABLE import_jobs ADD COLUMN job_id integer REFERENCES runtime_jobs (id) ON DELETE CASCADE;
ALTER TABLE runtime_jobs ADD COLUMN moved_import integer;
-- Task status PREPARE 1 / START 2 → start 1 (started or not), SUCCESS 3 → finish 2, ERROR 4 → error 3.
INSERT INTO runtime_jobs (kind, title, state, progress, total, message, owner_id, heartbeat, created_at, started_at, finished_at, moved_import)
SELECT 'import', '导入“' || file_name || '”', CASE status WHEN 3 THEN 2 WHEN 4 THEN 3 ELSE 1 END, processed, total, message, user_id,
       coalesce(heartbeat_at, created_at), created_at, CASE WHEN status = 1 THEN NULL ELSE created_at END, finished_at, id
FROM import_jobs;
UPDATE import_jobs i SET job_id = j.id FROM runtime_jobs j WHERE j.moved_import = i.id;
ALTER TABLE runtime_jobs DROP COLUMN moved_import;

ALTER TABLE import_jobs DROP COLUMN id;
ALTER TABLE import_jobs DROP COLUMN status, DROP COLUMN total, DROP COLUMN processed, DROP COLUMN message,
  DROP COLUMN user_id, DROP COLUMN created_at, DROP COLUMN finished_at, DROP COLUMN heartbeat_at;
ALTER TABLE import_jobs ALTER COLUMN job_id SET NOT NULL;
ALTER TABLE import_jobs ADD PRIMARY KEY (job_id);
CREATE INDEX import_jobs_module_idx ON import_jobs (module, job_id DESC);
