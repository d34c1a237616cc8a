// engines: both — the character index against ILIKE
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containsText, likeContains } from '../../src/server/db/text-search.js';
import { createRuntimeApp } from '../fixtures/runtime-app.js';
import { bearer, login } from '../support/auth.js';
import { TEST_DB, type TestApp } from '../support/test-app.js';

const NAMES = ['张伟', '张三丰', '王张', '李四', '伟张', 'Zhang Wei', 'ZHANG', '100%纯', '1000', 'a_b', 'axb', 'c\\d', '张', '丰收'];
const TEXTS = ['张', '张伟', '伟张', 'zhang', 'ZHANG W', '%', '_', '\\', '100%', '丰', 'ａ', 'a_b'];

/**
 * "Contains" search through the character index (db/text-search.ts): the runtime's like filter and the
 * reference pickers answer exactly what a plain ILIKE answers, and the index can serve the condition.
 */
describe(`indexed text search on ${TEST_DB}`, () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createRuntimeApp();
    token = await login(t.app);
    await sql`INSERT INTO m_test_person (school, name, gender, org_id) SELECT 'hntb', n, '1', 1 FROM unnest(${NAMES}::text[]) AS n`.execute(t.database.db);
    // Rows that match nothing searched, so the table is not all matches.
    await sql`INSERT INTO m_test_person (school, name, gender, org_id) SELECT 'hntb', '赵钱孙' || g, '2', 1 FROM generate_series(1, 20000) AS g`.execute(t.database.db);
    await sql`ANALYZE m_test_person`.execute(t.database.db);
  });
  afterAll(() => t.app.close());

  const plainIds = async (text: string) =>
    (await sql<{ id: number }>`SELECT id FROM m_test_person WHERE name ILIKE ${likeContains(text)} ORDER BY id DESC`.execute(t.database.db)).rows.map((r) => r.id);

  it('the like filter and the pickers find exactly what ILIKE finds (one character, several, case, wildcards as text)', async () => {
    for (const text of TEXTS) {
      const expected = await plainIds(text);
      const res = await t.app.inject({ method: 'POST', url: '/api/m/test-person/list?size=1000&sort=id,desc', headers: bearer(token), payload: { name: text } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().content.map((r: { id: number }) => r.id), text).toEqual(expected);
      expect(res.json().totalElements, text).toBe(expected.length);
      const options = await t.app.inject({ url: `/api/m/test-person/options?size=100&q=${encodeURIComponent(text)}`, headers: bearer(token) });
      expect(options.json().map((r: { id: number }) => r.id).sort(), text).toEqual([...expected].sort());
    }
    // Sanity of the fixture: the cases that must differ do.
    expect((await plainIds('张')).length).toBe(5);
    expect((await plainIds('伟张')).length).toBe(1); // 张伟 holds both characters but not in this order
    expect((await plainIds('_')).length).toBe(1); // a_b, not axb
  });

  it('the condition is one the character index answers', async () => {
    // Among 20,000 other names, the planner reads the few rows holding 张 and 伟 through the index.
    const plan = await sql<{ 'QUERY PLAN': string }>`EXPLAIN SELECT count(*) FROM m_test_person WHERE ${containsText('name', '张伟')}`.execute(t.database.db);
    expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('m_test_person__name_chars');
    // One character: the index condition is the whole answer, the ILIKE is folded away.
    const one = await sql<{ 'QUERY PLAN': string }>`EXPLAIN SELECT count(*) FROM m_test_person WHERE ${containsText('name', '张')}`.execute(t.database.db);
    expect(one.rows.map((r) => r['QUERY PLAN']).join('\n')).not.toContain('~~*');
  });
});
