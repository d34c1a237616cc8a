-- Issue 39 §3: the lend/return log 因私出国（境）证件 (module cadre-certificate) becomes the passport register
-- (module cadre-passport, table m_cadre_passport) with the trips as their own process (cadre-abroad). Each
-- old row becomes a passport: its number and kind (dictionary GB_CG_ZJLX), in custody (集中保管) once
-- returned or never lent, else still lent (已领取; the 组织部 records its return by hand). The old lend columns
-- (lend_date, purpose, trip_end_date, return_date) stay as the runtime's retired columns (data kept). The
-- old return reminders end; an administrator's return days move to the trip's parameter.
DO $$
BEGIN
  IF to_regclass('m_cadre_certificate') IS NOT NULL AND to_regclass('m_cadre_passport') IS NULL THEN
    ALTER TABLE m_cadre_certificate RENAME TO m_cadre_passport;
    ALTER TABLE m_cadre_passport RENAME COLUMN cert_no TO number;
    ALTER TABLE m_cadre_passport ADD COLUMN IF NOT EXISTS state text;
    ALTER TABLE m_cadre_passport ADD COLUMN IF NOT EXISTS custody_date date;
    UPDATE m_cadre_passport SET kind = CASE kind WHEN '往来港澳通行证' THEN '2' WHEN '往来台湾通行证' THEN '3' ELSE '1' END;
    UPDATE m_cadre_passport SET state = CASE WHEN lend_date IS NOT NULL AND return_date IS NULL THEN '已领取' ELSE '集中保管' END,
      custody_date = coalesce(return_date, created_at::date);
    -- x-unique (kind, number): a number lent twice was logged twice; the later rows keep their id beside it.
    UPDATE m_cadre_passport p SET number = coalesce(p.number, '') || '-' || p.id
      WHERE p.number IS NULL OR EXISTS (SELECT 1 FROM m_cadre_passport q WHERE q.kind = p.kind AND q.number = p.number AND q.id < p.id);
    UPDATE runtime_modules SET module = 'cadre-passport', table_name = 'm_cadre_passport', hash = '' WHERE module = 'cadre-certificate';
  END IF;
END $$;
DO $$
DECLARE i record;
BEGIN
  -- The runtime's indexes carry the module's name; the sync builds the new module's.
  FOR i IN SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND indexname LIKE 'm\_cadre\_certificate\_\_%' LOOP
    EXECUTE format('DROP INDEX %I', i.indexname);
  END LOOP;
END $$;
UPDATE reminders SET state = 3, updated_at = now() WHERE module = 'cadre-certificate' AND state <> 3;
UPDATE reminder_settings SET module = 'cadre-abroad', type = 'passport-return' WHERE module = 'cadre-certificate' AND type = 'certificate-return';
UPDATE rule_param_changes SET param_key = 'cadre-abroad.returnDays' WHERE param_key = 'cadre-certificate.returnDays';
