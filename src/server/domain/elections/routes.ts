/**
 * Endpoints of the election area beyond the module API (docs/elections.md):
 * - `GET /api/elections/check?seats=N&candidates=M`  the 20% rule: `{ ok, minimum }`
 * - `POST /api/elections/tally`                      counts ballots (nothing stored)
 * - `GET /api/elections/terms?due=6`                 organisations whose term ends within `due` months or has ended
 * - `GET /api/elections/congress/{id}/allocation`     the delegate number allocated to the electoral units by member count
 * - `GET /api/elections/congress/{id}/structure`      the delegates' structure against the members', with the check's warnings
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { checkCandidates, tallyElection } from '../../../shared/ballot.js';
import { localToday } from '../../../shared/module-schema/computed.js';
import { currentUser, perm } from '../../core/auth/guard.js';
import { HttpError } from '../../errors.js';
import { allocateDelegates, structureOf, structureWarnings, termDue, type StructureFacts } from './rules.js';
import { addMonths } from '../../../shared/calendar.js';
import { onRosterSql } from '../member/members.js';
import { withSubtree } from './facts.js';

/** Whoever works with elections: the three pages of the area. */
const AREA = perm('org-two-committee:list', 'org-delegate:list', 'org-congress:list');
const MAX_BALLOTS = 100_000;
const CONGRESS = perm('org-congress:list', 'org-delegate:list');
const DELEGATE_STATUSES = ['推荐人选', '候选人', '当选代表', '未当选'];

function count(value: unknown, title: string, min: number, max: number): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) throw new HttpError(400, `${title}应为${min}至${max}之间的整数`, { errors: [{ field: title, message: `${title}应为${min}至${max}之间的整数` }] });
  return n;
}

export async function electionRoutes(app: FastifyInstance): Promise<void> {
  const db = app.services.database.db;

  app.get('/api/elections/check', { config: AREA }, async (req) => {
    const q = req.query as Record<string, unknown>;
    return checkCandidates(count(q.seats, '应选名额', 1, 1000), count(q.candidates, '候选人数', 0, 10_000));
  });

  app.post('/api/elections/tally', { config: AREA, bodyLimit: 16 * 1024 * 1024 }, async (req) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const seats = count(body.seats, '应选名额', 1, 1000);
    const entitled = count(body.entitled, '应到会有选举权人数', 1, 1_000_000);
    const ballotsIssued = count(body.ballotsIssued, '发出选票数', 0, 1_000_000);
    if (!Array.isArray(body.ballots) || body.ballots.length > MAX_BALLOTS) throw new HttpError(400, `选票应为数组，至多${MAX_BALLOTS}张`);
    const ids = (v: unknown) => v === undefined || (Array.isArray(v) && v.length <= 1000 && v.every((m) => Number.isSafeInteger(m) || (typeof m === 'string' && m.length <= 50)));
    const ballots = body.ballots.map((b: unknown, i: number) => {
      const o = (b ?? {}) as { marks?: unknown; against?: unknown; abstain?: unknown; writeIns?: unknown };
      if (!Array.isArray(o.marks) || !ids(o.marks) || !ids(o.against) || !ids(o.abstain)) {
        throw new HttpError(400, `第${i + 1}张选票格式不正确：marks（赞成）、against（不赞成）、abstain（弃权）应为候选人编号数组`);
      }
      if (o.writeIns !== undefined && !(Array.isArray(o.writeIns) && o.writeIns.length <= 1000 && o.writeIns.every((w) => typeof w === 'string' && w.length <= 50))) {
        throw new HttpError(400, `第${i + 1}张选票格式不正确：writeIns（另选他人）应为姓名数组`);
      }
      return { marks: o.marks as (number | string)[], against: o.against as (number | string)[] | undefined, abstain: o.abstain as (number | string)[] | undefined, writeIns: o.writeIns as string[] | undefined };
    });
    const candidates = Array.isArray(body.candidates) ? (body.candidates as (number | string)[]) : undefined;
    const t = tallyElection({ seats, entitled, ballotsIssued, ballots, candidates });
    return { valid: t.valid, ballotsReturned: t.ballotsReturned, ballotsValid: t.ballotsValid, ballotsVoid: t.ballotsVoid, votes: t.votes, furtherRound: t.furtherRound, seatsLeft: t.seatsLeft };
  });

  app.get('/api/elections/terms', { config: AREA }, async (req) => {
    const q = req.query as Record<string, unknown>;
    const months = q.due === undefined || q.due === '' ? 6 : count(q.due, '月数', 0, 120);
    const today = localToday();
    const actor = await app.runtime.actorOf(currentUser(req));
    const scope = actor.scope === 'all' ? sql`true` : actor.scope.length ? sql`id = ANY(${actor.scope}::int[])` : sql`false`;
    const rows = await sql<{ orgId: number; name: string; type: string | null; termStart: string | null; termEnd: string }>`
      SELECT id AS "orgId", name, type, term_start AS "termStart", term_end AS "termEnd" FROM m_org
      WHERE term_end IS NOT NULL AND term_end <= ${addMonths(today, months)}::date AND ${scope}
      ORDER BY term_end, id`.execute(db);
    return rows.rows.map((r) => ({ orgId: r.orgId, name: r.name, termStart: r.termStart, termEnd: r.termEnd, overdue: termDue(r.termEnd, today, months).overdue }));
  });

  /** The congress as the caller may read it (404 otherwise). */
  const congressOf = async (req: { params: unknown }, user: ReturnType<typeof currentUser>) => {
    const id = Number((req.params as { id: string }).id);
    if (!Number.isSafeInteger(id) || id <= 0) throw new HttpError(404, '党代会记录不存在');
    return (await app.runtime.records('congress').get(id, await app.runtime.actorOf(user))) as unknown as Record<string, unknown> & { id: number; orgId: number };
  };

  app.get('/api/elections/congress/:id/allocation', { config: CONGRESS }, async (req) => {
    const congress = await congressOf(req, currentUser(req));
    const rows = await sql<{ id: number; name: string; members: number; elected: number; candidates: number }>`
      WITH RECURSIVE t AS (SELECT id, id AS unit FROM m_org WHERE parent_id = ${congress.orgId} UNION ALL SELECT o.id, t.unit FROM m_org o JOIN t ON o.parent_id = t.id)
      SELECT u.id, u.name,
        (SELECT count(*)::int FROM m_member m WHERE ${onRosterSql('m')} AND m.org_id IN (SELECT id FROM t WHERE t.unit = u.id)) AS members,
        (SELECT count(*)::int FROM m_delegate d WHERE d.congress_id = ${congress.id} AND d.status = '当选代表' AND d.unit_org_id IN (SELECT id FROM t WHERE t.unit = u.id)) AS elected,
        (SELECT count(*)::int FROM m_delegate d WHERE d.congress_id = ${congress.id} AND d.status = '候选人' AND d.unit_org_id IN (SELECT id FROM t WHERE t.unit = u.id)) AS candidates
      FROM m_org u WHERE u.parent_id = ${congress.orgId} ORDER BY u.sort NULLS LAST, u.id`.execute(db);
    const quota = Number(congress.delegateQuota) || 0;
    const allocated = allocateDelegates(quota, rows.rows);
    return { congressId: congress.id, quota, members: rows.rows.reduce((n, r) => n + r.members, 0), units: rows.rows.map((r) => ({ orgId: r.id, name: r.name, members: r.members, quota: allocated.get(r.id) ?? 0, elected: r.elected, candidates: r.candidates })) };
  });

  app.get('/api/elections/congress/:id/structure', { config: CONGRESS }, async (req) => {
    const congress = await congressOf(req, currentUser(req));
    const status = (req.query as { status?: string }).status || '当选代表';
    if (!DELEGATE_STATUSES.includes(status)) throw new HttpError(400, `状态应为${DELEGATE_STATUSES.join('、')}之一`);
    const today = localToday();
    const delegates = await sql<StructureFacts>`SELECT gender, ethnicity, birth_date AS "birthDate", front_line AS "frontLine" FROM m_delegate WHERE congress_id = ${congress.id} AND status = ${status}`.execute(db);
    const members = await sql<StructureFacts>`
      ${withSubtree(congress.orgId)}
      SELECT gender, ethnicity, birth_date AS "birthDate", (category IN ('1', '3', '4', '5')) AS "frontLine" FROM m_member WHERE party_status = '1' AND org_id IN (SELECT id FROM sub)`.execute(db);
    const d = structureOf(delegates.rows, today);
    const m = structureOf(members.rows, today);
    return { congressId: congress.id, status, delegates: d, members: m, warnings: structureWarnings(d, m) };
  });
}
