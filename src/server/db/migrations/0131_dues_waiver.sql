-- Party dues (issue 33.1): 免交 — a closed month left unpaid, exempted as 中组发〔2008〕3号 第七条 allows
-- (经济确有困难的党员, 经党支部研究, 报上一级党委批准, 可以少交或免交党费), recorded with the approval. The month
-- counts as settled (the member's standing, arrears, 自行脱党); the closed batch's figures stay as they closed.
CREATE TABLE dues_waiver (
  item_id         integer PRIMARY KEY REFERENCES dues_item (id) ON DELETE CASCADE,
  member_id       integer NOT NULL,
  org_id          integer NOT NULL,
  reason          text NOT NULL,
  approval        text NOT NULL,
  created_by      integer REFERENCES users (id) ON DELETE SET NULL,
  created_by_name text NOT NULL DEFAULT '',
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX dues_waiver_member_idx ON dues_waiver (member_id);
