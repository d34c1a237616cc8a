-- Development of new party members (src/server/domain/development).

-- 入党志愿书 numbers handed out, from the ranges the organisation department configures (module
-- development-book-range). A number is never given twice, even when its application ends without
-- admission: the primary key keeps it taken.
CREATE TABLE development_book_numbers (
  number       text PRIMARY KEY,
  range_id     integer NOT NULL,
  record_id    integer NOT NULL,
  allocated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX development_book_numbers_record_idx ON development_book_numbers (record_id);
