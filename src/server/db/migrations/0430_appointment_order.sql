-- Issue 39: the appointment procedure in the order of 《党政领导干部选拔任用工作条例》(2019): 讨论决定 before 任前公示
-- (公示 after the decision, before the 任职通知). States now: 2 已考察, 3 已讨论决定, 4 任前公示中 (任职 from 4, not
-- before the day after the publicity). Old records: 3 (publicity running or over, not yet decided) go back
-- to 2 to be decided (their publicity is held again after the decision); 4 (decided after the publicity)
-- stay at 4, ready for 任职 from the day after that publicity (appoint_from).
DO $$
BEGIN
  IF to_regclass('m_appointment') IS NOT NULL THEN
    ALTER TABLE m_appointment ADD COLUMN IF NOT EXISTS appoint_from date;
    UPDATE m_appointment SET state = 2 WHERE state = 3;
    UPDATE m_appointment SET appoint_from = publicity_end + 1 WHERE state = 4 AND publicity_end IS NOT NULL AND appoint_from IS NULL;
  END IF;
END $$;
