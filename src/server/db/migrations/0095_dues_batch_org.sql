-- Party dues (issue 16): a closed batch's figures per organisation, kept at closing. A closed batch never
-- changes (payments, reversals, deferrals and adjustments refuse it), so the school's yearly report reads
-- these few thousand rows per month instead of summing a hundred thousand items per month again.
-- Own figures of the organisation (its members in the snapshot), not rolled up; amounts in whole cents.
CREATE TABLE dues_batch_org (
  batch_id     integer NOT NULL REFERENCES dues_batch (id) ON DELETE CASCADE,
  org_id       integer NOT NULL,
  members      integer NOT NULL,
  paid_members integer NOT NULL,
  deferred     integer NOT NULL,
  due_cents    bigint NOT NULL,
  paid_cents   bigint NOT NULL,
  PRIMARY KEY (batch_id, org_id)
);

-- Batches closed before this migration.
INSERT INTO dues_batch_org (batch_id, org_id, members, paid_members, deferred, due_cents, paid_cents)
SELECT i.batch_id, i.org_id, count(*), count(i.payment_id), count(d.item_id), coalesce(sum(i.due_cents), 0), coalesce(sum(i.paid_cents), 0)
FROM dues_item i JOIN dues_batch b ON b.id = i.batch_id AND b.state = 4
LEFT JOIN dues_deferral d ON d.item_id = i.id AND i.payment_id IS NULL
GROUP BY i.batch_id, i.org_id;
