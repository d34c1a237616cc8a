-- Issue 12: imports that cannot exhaust the server. The row limit of one import is a setting; a running
-- import job notes when it last made progress, so a job a stopped server left behind can be told from
-- one another app server is still running (PostgreSQL) and marked failed.
INSERT INTO sys_config (config_key, config_value, description) VALUES
  ('importMaxRows', '100000', '一次导入的最多数据行数（超过即拒绝，请拆分后分批导入）')
ON CONFLICT (config_key) DO NOTHING;

ALTER TABLE import_jobs ADD COLUMN heartbeat_at timestamptz;
