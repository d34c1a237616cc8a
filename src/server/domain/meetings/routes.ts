/**
 * Routes of organisation life beyond the module API (/api/m/meeting):
 * - `GET /api/meetings/compliance?orgId=&year=&types=`  per organisation and period: required, held, compliant
 *   (a branch: its own; a committee or the school: every branch under it, each entry with `orgId`)
 * - `GET /api/meetings/compliance/overview?orgId=&year=` the same without the periods: each branch's rate, the totals
 * - `GET /api/meetings/theme-plans/{id}/completion`      the branches under a theme party day plan that held it
 * - `GET /api/meetings/theme-plans/completion?year=`     every plan of the year with its completion rate
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { localToday } from '../../../shared/module-schema/computed.js';
import { currentUser, perm } from '../../core/auth/guard.js';
import { HttpError } from '../../errors.js';
import type { Actor } from '../../runtime/hooks.js';
import { orgTreeOf } from '../org/index.js';
import { complianceOf, type OrgCompliance } from './compliance.js';
import { BRANCH_TYPES } from './frequencies.js';

const LIST = 'meeting:list';
const bad = (field: string, message: string) => new HttpError(400, message, { errors: [{ field, message }] });

interface ComplianceParams {
  orgIds: number[];
  year: number;
  types?: string[];
}

/** The organisation and year asked for, kept to the caller's scope (default: the caller's own organisation). */
async function complianceParams(req: FastifyRequest): Promise<ComplianceParams> {
  const q = req.query as { orgId?: string; year?: string; types?: string };
  const actor = await req.server.runtime.actorOf(currentUser(req));
  const year = q.year ? Number(q.year) : Number(localToday().slice(0, 4));
  if (!Number.isInteger(year) || year < 2000 || year > 2100) throw bad('year', '年度不正确');
  const types = q.types ? q.types.split(',').filter(Boolean) : undefined;
  if (q.orgId !== undefined && q.orgId !== '') {
    const orgId = Number(q.orgId);
    if (!Number.isSafeInteger(orgId) || orgId <= 0) throw bad('orgId', '所选党组织不正确');
    // Outside the caller's scope reads as missing, as the module API answers.
    if (actor.scope !== 'all' && !actor.scope.includes(orgId)) throw new HttpError(404, '党组织不存在或不在管理范围内');
    return { orgIds: [orgId], year, types };
  }
  if (actor.scope === 'all') return { orgIds: (await orgTreeOf(req.server.services)?.roots()) ?? [], year, types };
  return { orgIds: actor.orgId ? [actor.orgId] : actor.scope, year, types };
}

const summaryOf = (orgs: OrgCompliance[]) => {
  const branches = orgs.filter((o) => BRANCH_TYPES.includes(o.orgType ?? ''));
  const due = orgs.reduce((s, o) => s + o.due, 0);
  const met = orgs.reduce((s, o) => s + o.met, 0);
  return {
    organisations: orgs.length,
    branches: branches.length,
    compliantBranches: branches.filter((o) => o.compliant).length,
    due,
    met,
    rate: due ? met / due : 1,
  };
};
const withoutPeriods = ({ periods: _periods, ...o }: OrgCompliance) => o;

export async function meetingRoutes(app: FastifyInstance): Promise<void> {
  app.get('/api/meetings/compliance', { config: perm(LIST) }, async (req) => {
    const p = await complianceParams(req);
    const orgs = await complianceOf(app, p);
    return { year: p.year, periods: orgs.flatMap((o) => o.periods), orgs: orgs.map(withoutPeriods), summary: summaryOf(orgs) };
  });

  app.get('/api/meetings/compliance/overview', { config: perm(LIST) }, async (req) => {
    const p = await complianceParams(req);
    const orgs = await complianceOf(app, { ...p, periods: false });
    return { year: p.year, orgs: orgs.map(withoutPeriods), summary: summaryOf(orgs) };
  });

  /** The branches under a plan's organisation (in the caller's scope) and whether each held it. */
  async function completionOf(plan: Record<string, unknown>, actor: Actor) {
    const tree = orgTreeOf(app.services)!;
    const under = new Set(await tree.subtreeIds([plan.orgId as number]));
    const inScope = (oid: number) => actor.scope === 'all' || actor.scope.includes(oid);
    const branches = (await tree.all()).filter((o) => under.has(o.id) && BRANCH_TYPES.includes(o.type ?? '') && inScope(o.id));
    const held = await sql<{ org_id: number; n: number; last: string }>`
      SELECT org_id, count(*)::int AS n, max(date)::text AS last FROM m_meeting
      WHERE theme_plan_id = ${plan.id as number} AND invalid IS NOT TRUE GROUP BY org_id`.execute(app.services.database.db);
    const byOrg = new Map(held.rows.map((r) => [r.org_id, r]));
    const rows = branches.map((b) => ({ orgId: b.id, orgName: b.name, held: byOrg.get(b.id)?.n ?? 0, lastDate: byOrg.get(b.id)?.last ?? null }));
    const done = rows.filter((r) => r.held > 0).length;
    return { plan: { id: plan.id, month: plan.month, topic: plan.topic, orgId: plan.orgId, orgIdName: plan.orgIdName }, branches: rows, total: rows.length, done, rate: rows.length ? done / rows.length : 0 };
  }

  app.get('/api/meetings/theme-plans/:id/completion', { config: perm(LIST) }, async (req) => {
    const id = Number((req.params as { id: string }).id);
    if (!Number.isSafeInteger(id) || id <= 0) throw new HttpError(404, '主题党日计划不存在');
    const actor = await app.runtime.actorOf(currentUser(req));
    const plan = await app.runtime.records('meeting-theme-plan').get(id, actor).catch(() => undefined);
    if (!plan) throw new HttpError(404, '主题党日计划不存在');
    return completionOf(plan, actor);
  });

  /** Every plan of a year with its completion (the branches listed only by the one-plan route). */
  app.get('/api/meetings/theme-plans/completion', { config: perm(LIST) }, async (req) => {
    const year = Number((req.query as { year?: string }).year ?? localToday().slice(0, 4));
    if (!Number.isInteger(year) || year < 2000 || year > 2100) throw bad('year', '年度不正确');
    const actor = await app.runtime.actorOf(currentUser(req));
    const plans = await app.runtime.records('meeting-theme-plan').list({ filter: { month: `${year}-` }, query: { size: 1000, sort: 'month,asc' } }, actor);
    const out = [];
    for (const plan of plans.content) {
      const { branches: _b, ...c } = await completionOf(plan, actor);
      out.push(c);
    }
    return { year, plans: out };
  });
}
