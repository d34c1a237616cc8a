-- Issue 24 §4: the fee batch is the module dues-batch (schemas/modules/dues-batch.json, x-table dues_batch)
-- with x-workflow. The runtime reads and writes the table: it gains the system columns a module table has,
-- its state and months become integer (the runtime's integer kind), and its log moves into workflow_log,
-- the one approval log of every process; dues_batch_log goes.
ALTER TABLE dues_batch ADD COLUMN IF NOT EXISTS updated_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE dues_batch ADD COLUMN IF NOT EXISTS updated_by integer;
UPDATE dues_batch SET updated_at = coalesce(closed_at, started_at, configured_at, created_at);
ALTER TABLE dues_batch ALTER COLUMN state TYPE integer;
ALTER TABLE dues_batch ALTER COLUMN months TYPE integer;
-- Module tables keep an empty text as null.
ALTER TABLE dues_batch ALTER COLUMN remark DROP NOT NULL;

-- Every entry as the engine writes one: a change of state at the organisation department (create,
-- configure, start, close), a report at its level (the branch's, the committee's), and what was recorded
-- for an organisation (deferrals, reversals, adjustments) at it. The times and actors stay as they were.
INSERT INTO workflow_log (module, record_id, transition, transition_title, from_state, to_state, result, level, acting_org_id, actor_id, actor_name, comment, at)
SELECT 'dues-batch', l.batch_id,
       CASE l.action WHEN 'report-branch' THEN 'report' WHEN 'report-committee' THEN 'report' ELSE l.action END,
       CASE l.action
         WHEN 'create' THEN '新建批次' WHEN 'configure' THEN '配置' WHEN 'start' THEN '开始收缴' WHEN 'close' THEN '关闭'
         WHEN 'report-branch' THEN '上报' WHEN 'report-committee' THEN '上报'
         WHEN 'defer' THEN '登记缓交' WHEN 'undefer' THEN '撤销缓交' WHEN 'reverse' THEN '冲正'
         WHEN 'adjust' THEN '调整' WHEN 'unadjust' THEN '撤销调整' ELSE l.action END,
       l.from_state, l.to_state, 'pass',
       CASE WHEN l.action = 'report-committee' THEN 'committee' WHEN l.org_id IS NOT NULL THEN 'branch' ELSE 'orgdept' END,
       l.org_id, l.actor_id, l.actor, l.comment, l.at
FROM dues_batch_log l
ORDER BY l.id;

DROP TABLE dues_batch_log;
