/**
 * Demo fill-in forms (issue 29, docs/forms.md): a form with a table of rows published to every party branch
 * with its organisations in every collection state (the demo branch of zbsj not started, so it can be
 * filled; one returned with a comment; one filled by the collector from an xlsx), a draft, and a stopped
 * collection. Written through the runtime (stored module, table sync, records) with bulk inserts elsewhere.
 */
import { sql } from 'kysely';
import { CollectStatus, JoinType, ShareState, ShareType } from '../../shared/constants.js';
import { addDays } from '../../shared/calendar.js';
import { SYSTEM_ACTOR } from '../runtime/index.js';
import { BRANCH_TYPES } from '../runtime/workflow/levels.js';
import { formModuleSchema } from '../domain/forms/schema.js';
import '../domain/forms/tables.js';
import type { SeedContext } from './index.js';

const ACTIVITIES = {
  properties: {
    leader: { type: 'string', title: '填报人', maxLength: 20, description: '支部书记或组织委员' },
    members: { type: 'integer', title: '党员人数', minimum: 0, maximum: 1000 },
    reportDate: { type: 'string', title: '填报日期', format: 'date' },
    activities: {
      type: 'array', title: '活动明细', maxItems: 100,
      items: { type: 'object', additionalProperties: false, required: ['topic'], properties: { topic: { type: 'string', title: '活动主题', maxLength: 100 }, day: { type: 'string', title: '活动日期', format: 'date' }, people: { type: 'integer', title: '参加人数', minimum: 0 } } },
    },
  },
  required: ['leader', 'members'],
};
const NEEDS = { properties: { topic: { type: 'string', title: '希望学习的主题', maxLength: 100 }, hours: { type: 'number', title: '每月可用学时', minimum: 0, maximum: 100 } }, required: ['topic'] };
const SELF_CHECK = { properties: { paid: { type: 'integer', title: '按时交纳人数', minimum: 0 }, note: { type: 'string', title: '说明', format: 'textarea', maxLength: 500 } }, required: ['paid'] };

/** The states of the published form's organisations, in turn (the demo branch first, NO_START). */
const CYCLE = [CollectStatus.NO_START, CollectStatus.STASHED_END, CollectStatus.COLLECT_END, CollectStatus.IMPORT_END, CollectStatus.COLLECT_END, CollectStatus.NO_START];
/** Organisations with an answer written as a record (the rest keep their state only): enough for the demo, fast to seed. */
const ANSWERED = 24;

export async function seedDemoForms({ database, app }: SeedContext): Promise<Record<string, number>> {
  if (!app) return {};
  const db = database.db;
  const today = new Date().toISOString().slice(0, 10);
  const { rows: branches } = await sql<{ id: number; name: string }>`SELECT id, name FROM m_org WHERE type IN (${sql.join([...BRANCH_TYPES])}) ORDER BY id`.execute(db);
  const demoBranch = (await db.selectFrom('users').select('org_id').where('username', '=', 'zbsj').executeTakeFirst())?.org_id;
  const ordered = [...branches.filter((b) => b.id === demoBranch), ...branches.filter((b) => b.id !== demoBranch)];
  const create = async (n: number, title: string, designed: object) => {
    const id = `form-${n}`;
    await app.runtime.stored.save(formModuleSchema(designed, id, title), null);
    const row = await db.insertInto('forms').values({ id: n, module: id, title }).returning('id').executeTakeFirstOrThrow();
    return { id, formId: row.id };
  };
  await sql`SELECT setval(pg_get_serial_sequence('forms', 'id'), 3)`.execute(db);

  // 1. Published to every branch, every state among its organisations.
  const activities = await create(1, '2026年度支部活动情况统计', ACTIVITIES);
  await db.updateTable('forms').set({ share_type: ShareType.PARTY_BRANCH, share_state: ShareState.SHARING, deadline: addDays(today, 5), published_version: 1, published_at: new Date() }).where('id', '=', activities.formId).execute();
  const states = ordered.map((b, i) => ({ org: b, state: CYCLE[i % CYCLE.length] }));
  await db.insertInto('form_fills').values(states.map((s) => ({ form_id: activities.formId, org_id: s.org.id }))).execute();
  const records = app.runtime.records(activities.id);
  let answered = 0;
  for (const [i, s] of states.entries()) {
    if (s.state === CollectStatus.NO_START) continue;
    if (s.state === CollectStatus.STASHED_END || answered >= ANSWERED) {
      await db.updateTable('form_fills').set({ state: CollectStatus.STASHED_END, draft: JSON.stringify({ leader: '王组织委员' }) }).where('form_id', '=', activities.formId).where('org_id', '=', s.org.id).execute();
      continue;
    }
    answered++;
    const record = await records.create({
      orgId: s.org.id, leader: `${s.org.name.slice(0, 4)}书记`, members: 12 + (i % 30), reportDate: addDays(today, -(i % 10)),
      activities: [{ topic: '主题党日：学习党的二十届三中全会精神', day: addDays(today, -20), people: 10 + (i % 8) }, { topic: '三会一课：支部党员大会', day: addDays(today, -12), people: 11 + (i % 5) }],
    }, SYSTEM_ACTOR);
    const returned = answered === 2;
    await db.updateTable('form_fills').set({
      state: returned ? CollectStatus.STASHED_END : s.state, record_id: record.id as number, schema_version: 1,
      join_type: answered === 3 ? JoinType.USER_IMPORT : JoinType.SYSTEM_IMPORT, comment: returned ? '活动明细缺少参加人数，请补充后重新提交' : null,
    }).where('form_id', '=', activities.formId).where('org_id', '=', s.org.id).execute();
  }

  // 2. A draft the collector is still designing.
  await create(2, '党员教育培训需求调查', NEEDS);

  // 3. A collection that ended: stopped, its answers accepted.
  const selfCheck = await create(3, '2025年度党费收缴自查表', SELF_CHECK);
  const some = ordered.slice(0, 6);
  await db.updateTable('forms').set({ share_type: ShareType.CUSTOM, share_state: ShareState.SHARING, org_ids: JSON.stringify(some.map((b) => b.id)), deadline: addDays(today, -30), published_version: 1, published_at: new Date() }).where('id', '=', selfCheck.formId).execute();
  await db.insertInto('form_fills').values(some.map((b) => ({ form_id: selfCheck.formId, org_id: b.id }))).execute();
  for (const [i, b] of some.entries()) {
    if (i === some.length - 1) continue; // one never answered
    const record = await app.runtime.records(selfCheck.id).create({ orgId: b.id, paid: 20 + i, note: '已按时足额交纳' }, SYSTEM_ACTOR);
    await db.updateTable('form_fills').set({ state: CollectStatus.IMPORT_END, record_id: record.id as number, schema_version: 1, join_type: JoinType.SYSTEM_IMPORT }).where('form_id', '=', selfCheck.formId).where('org_id', '=', b.id).execute();
  }
  await db.updateTable('forms').set({ share_state: ShareState.STOPPED }).where('id', '=', selfCheck.formId).execute();
  return { forms: 3, organisations: ordered.length, answered: answered + some.length - 1 };
}
