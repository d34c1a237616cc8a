-- Issue 44: every app server sweeps the open exam sheets whose deadline passed (exam-core.ts
-- startExpirySweep) every few seconds; this keeps that look-up off the whole history of sheets.
CREATE INDEX pschool_exam_sessions_open_deadline_idx ON pschool_exam_sessions (deadline) WHERE status = 1;
