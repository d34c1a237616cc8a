import { describe, expect, it } from 'vitest';
import { withoutRedundant } from '../../src/server/runtime/table-sync.js';

const idx = (columns: string[], unique = false, chars?: true) => ({ name: columns.join('_') + (unique ? '_uq' : chars ? '_chars' : ''), columns, unique, ...(chars && { chars }) });

describe('redundant indexes of a module table', () => {
  it('drops a plain index whose columns lead a longer one or equal a unique one, and keeps the rest', () => {
    const indexes = [
      idx(['org_id']), // leads (org_id, join_date)
      idx(['join_date']), // second column only: still needed for sorting everything by date
      idx(['org_id', 'join_date']),
      idx(['id_card']), // same columns as the unique index
      idx(['id_card'], true),
      idx(['org_id', 'year'], true),
      idx(['name']),
      idx(['name'], false, true), // a character index serves other lookups than the btree
      idx(['gender']),
    ];
    expect(withoutRedundant(indexes).map((i) => i.name)).toEqual(['join_date', 'org_id_join_date', 'id_card_uq', 'org_id_year_uq', 'name', 'name_chars', 'gender']);
  });

  it('never drops a unique index, even when a longer one starts with its columns', () => {
    const indexes = [idx(['code'], true), idx(['code', 'year'])];
    expect(withoutRedundant(indexes)).toEqual(indexes);
  });
});
