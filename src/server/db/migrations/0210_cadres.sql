-- Cadres (docs/cadres.md): the school settings of the cadre area, and the unit a reminder belongs to, so
-- reminders of unit-scoped modules (cadres, and their child records through the cadre) keep to the
-- caller's unit scope as those of organisation-scoped modules keep to the organisation scope.
INSERT INTO sys_config (config_key, config_value, description) VALUES
  ('cadreResumeGapMonths', '0', '干部简历：在职期间全职经历之间允许的最长断档（月）'),
  ('cadreTermYears', '5', '干部任期（年）：任职记录未填任期时按此计算任期到期'),
  ('cadreRetireAge.male', '60', '干部退休年龄：男'),
  ('cadreRetireAge.female', '55', '干部退休年龄：女（处级及以下）'),
  ('cadreRetireAge.femaleSenior', '60', '干部退休年龄：女（厅级及以上）'),
  ('cadreCertificateReturnDays', '10', '因私出国（境）证件：行程结束后应在几日内交回（7或10）'),
  ('cadreUkeyRoles', '', '干部页面须先通过uKey验证的角色编码（逗号分隔；仅对启用uKey的用户生效）')
ON CONFLICT (config_key) DO NOTHING;

ALTER TABLE reminders ADD COLUMN unit_id integer;
CREATE INDEX reminders_unit_idx ON reminders (unit_id);
