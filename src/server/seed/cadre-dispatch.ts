/**
 * Demo 职位目录 and 任免文件 (docs/cadres.md), after the demo appointments: a catalogue for every unit with
 * cadres (one catalogue post per current full-time 职务, the posts naming theirs, and an abolished one in some
 * units), and a dispatch for every completed appointment's decision number with its lines — 任 for the post
 * it wrote, 免 for the post it replaced. A promotion on probation keeps its former post (the rule of
 * appointment.ts), so the demo's former posts of those on probation are current again. Deterministic, bulk
 * inserts in one transaction; it follows the cadres' count (600 in the demo, the bench's size alike).
 */
import { sql, type Kysely } from 'kysely';
import { addDays, addMonths } from '../../shared/calendar.js';
import { localToday } from '../../shared/module-schema/computed.js';
import type { Database } from '../db/database.js';
import { refreshStaffing } from '../domain/cadre/staffing.js';
import { refreshCatalogued } from '../domain/cadre/unit-post.js';
import type { SeedContext } from './index.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- module tables exist only at run time */
type AnyDb = Kysely<any>;
type Row = Record<string, unknown>;
const CHUNK = 500;

/** Catalogue kinds by post (GB_JBXX_ZW): the party posts, the sections' posts, the rest administrative. */
const PARTY_POSTS = new Set(['01', '02', '05', '08', '09', '12', '13', '14']);
const SECTION_POSTS = new Set(['23', '24']);

export async function seedDispatches(database: Database, options: { today?: string } = {}): Promise<{ unitPosts: number; dispatches: number; lines: number }> {
  const today = options.today ?? localToday();
  return database.db.transaction().execute(async (trx) => {
    const db = trx as unknown as AnyDb;
    const school = (await sql<{ school: string | null }>`SELECT school FROM m_cadre LIMIT 1`.execute(db)).rows[0]?.school ?? null;

    // 职位目录: one catalogue post per current full-time post, numbered within its unit.
    const held = (await sql<{ id: number; unit_id: number; post: string; rank: string; post_attr: string | null; start_date: string }>`
      SELECT p.id, p.unit_id, p.post, p.rank, p.post_attr, p.start_date::text FROM m_cadre_post p
      WHERE p.kind = '职务' AND coalesce(p.full_time, true) AND p.end_date IS NULL AND p.unit_id IS NOT NULL AND p.post IS NOT NULL AND p.rank IS NOT NULL
      ORDER BY p.unit_id, p.rank, p.post, p.id`.execute(db)).rows;
    const labels = new Map((await sql<{ value: string; label: string }>`SELECT value, label FROM dict_details WHERE dict_code = 'GB_JBXX_ZW'`.execute(db)).rows.map((d) => [d.value, d.label]));
    const perUnit = new Map<number, number>();
    const catalogue: Row[] = [];
    const owner: number[] = [];
    for (const h of held) {
      const n = (perUnit.get(h.unit_id) ?? 0) + 1;
      perUnit.set(h.unit_id, n);
      catalogue.push({
        school, unit_id: h.unit_id, code: `ZW${String(n).padStart(3, '0')}`, title: labels.get(h.post) ?? h.post, post: h.post, head: h.post_attr === '1' ? '正职' : '副职', rank: h.rank,
        kind: PARTY_POSTS.has(h.post) ? '党委领导职务' : SECTION_POSTS.has(h.post) ? '内设机构领导职务' : '行政领导职务',
        open_date: h.start_date < '2010-01-01' ? h.start_date : '2010-01-01', approved_doc: '校编〔2010〕3号',
      });
      owner.push(h.id);
    }
    // Every fifth unit has had a post abolished (a year ago): the catalogue keeps it, closed.
    [...perUnit.keys()].filter((_, i) => i % 5 === 0).forEach((unitId) => {
      const n = perUnit.get(unitId)! + 1;
      catalogue.push({ school, unit_id: unitId, code: `ZW${String(n).padStart(3, '0')}`, title: '调研员', post: '99', head: '副职', rank: '06', kind: '其他', open_date: '2010-01-01', abolish_date: addMonths(today, -12), approved_doc: '校编〔2010〕3号', remark: '机构改革撤销' });
    });
    const postIds: number[] = [];
    for (let i = 0; i < catalogue.length; i += CHUNK) postIds.push(...(await db.insertInto('m_unit_post').values(catalogue.slice(i, i + CHUNK)).returning('id').execute()).map((x: { id: number }) => Number(x.id)));
    for (let i = 0; i < owner.length; i += CHUNK) {
      const pairs = owner.slice(i, i + CHUNK).map((postId, j) => sql`(${postId}::int, ${postIds[i + j]}::int)`);
      await sql`UPDATE m_cadre_post p SET unit_post_id = v.up FROM (VALUES ${sql.join(pairs)}) AS v(id, up) WHERE p.id = v.id`.execute(db);
    }

    // 任免文件 of the completed appointments, one per decision number.
    const issuer = (await sql<{ name: string }>`SELECT name FROM m_org WHERE parent_id IS NULL ORDER BY id LIMIT 1`.execute(db)).rows[0]?.name ?? '中共学校委员会';
    const done = (await sql<{ id: number; cadre_id: number; name: string; post_id: number; appoint_date: string; decision_doc_no: string; state: number; probation_end: string | null }>`
      SELECT id, cadre_id, name, post_id, appoint_date::text, decision_doc_no, state, probation_end::text FROM m_appointment
      WHERE state IN (5, 6) AND post_id IS NOT NULL AND decision_doc_no IS NOT NULL ORDER BY appoint_date, id`.execute(db)).rows;
    const byNo = new Map<string, typeof done>();
    for (const a of done) byNo.set(a.decision_doc_no, [...(byNo.get(a.decision_doc_no) ?? []), a]);
    const dispatches = [...byNo.entries()].map(([docNo, list]) => ({
      school, doc_no: docNo, issue_date: list[0].appoint_date, issuer, title: `关于${list[0].name}${list.length > 1 ? '等' : ''}同志职务任免的通知`, line_count: 0,
    }));
    const dispatchIds = new Map<string, number>();
    for (let i = 0; i < dispatches.length; i += CHUNK) {
      const rows = (await db.insertInto('m_cadre_dispatch').values(dispatches.slice(i, i + CHUNK)).returning(['id', 'doc_no']).execute()) as { id: number; doc_no: string }[];
      for (const r of rows) dispatchIds.set(r.doc_no, Number(r.id));
    }
    const lines: Row[] = [];
    const reopened: number[] = [];
    for (const a of done) {
      const dispatchId = dispatchIds.get(a.decision_doc_no)!;
      const post = (await sql<{ unit_id: number; rank: string; post_title: string | null }>`SELECT unit_id, rank, post_title FROM m_cadre_post WHERE id = ${a.post_id}`.execute(db)).rows[0];
      lines.push({ school, dispatch_id: dispatchId, action: '任', cadre_id: a.cadre_id, post_id: a.post_id, unit_id: post?.unit_id, rank: post?.rank, post_title: post?.post_title, line_date: a.appoint_date, appointment_id: a.id });
      const former = (await sql<{ id: number; unit_id: number; rank: string; post_title: string | null; end_date: string }>`
        SELECT id, unit_id, rank, post_title, end_date::text FROM m_cadre_post WHERE cadre_id = ${a.cadre_id} AND kind = '职务' AND id <> ${a.post_id} AND end_date = ${addDays(a.appoint_date, -1)}::date`.execute(db)).rows[0];
      if (!former) continue;
      // On probation: the former post is kept until the confirmation; otherwise its 免 line.
      if (a.state === 5 && a.probation_end) reopened.push(former.id);
      else lines.push({ school, dispatch_id: dispatchId, action: '免', cadre_id: a.cadre_id, post_id: former.id, unit_id: former.unit_id, rank: former.rank, post_title: former.post_title, line_date: former.end_date, appointment_id: a.id });
    }
    for (let i = 0; i < lines.length; i += CHUNK) await db.insertInto('m_cadre_dispatch_line').values(lines.slice(i, i + CHUNK)).execute();
    await sql`UPDATE m_cadre_dispatch d SET line_count = (SELECT count(*)::int FROM m_cadre_dispatch_line l WHERE l.dispatch_id = d.id)`.execute(db);
    await sql`UPDATE m_appointment a SET dispatch_no = a.decision_doc_no WHERE a.state IN (5, 6) AND a.post_id IS NOT NULL`.execute(db);
    if (reopened.length) {
      await sql`UPDATE m_cadre_post SET end_date = NULL, remove_doc_no = NULL WHERE id = ANY(${reopened}::int[])`.execute(db);
    }
    // The staffing rows count the catalogue and, with the reopened posts, their holders again.
    const pairs = (await sql<{ unit_id: number; rank: string }>`SELECT unit_id, rank FROM m_staffing`.execute(db)).rows.map((r) => ({ unitId: r.unit_id, rank: r.rank }));
    await refreshCatalogued(trx, pairs, today);
    if (reopened.length) {
      const touched = (await sql<{ unit_id: number; rank: string }>`SELECT DISTINCT unit_id, rank FROM m_cadre_post WHERE id = ANY(${reopened}::int[])`.execute(db)).rows;
      await refreshStaffing(trx, touched.map((r) => ({ unitId: r.unit_id, rank: r.rank })), today);
    }
    return { unitPosts: catalogue.length, dispatches: dispatches.length, lines: lines.length };
  });
}

/** The demo's catalogues and dispatches, after the demo appointments. */
export async function seedDemoDispatches({ database, log }: SeedContext): Promise<void> {
  log.info(await seedDispatches(database), 'demo post catalogue and dispatches seeded');
}
