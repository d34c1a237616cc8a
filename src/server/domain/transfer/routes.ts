/**
 * The endpoints of the transfer area a module schema cannot serve: lost contact, decisions on party
 * standing, floating suggestions, 自行脱党 candidates, statistics, letters.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { localToday } from '../../../shared/module-schema/computed.js';
import { currentUser, perm } from '../../core/auth/guard.js';
import { sendXlsx } from '../../core/xlsx.js';
import { HttpError } from '../../errors.js';
import { decisionsOf, restoreMembership, stopMembership, type DecisionInput } from './decisions.js';
import { lapseCandidates } from './dues-source.js';
import { letterData, letterWorkbook } from './letter-print.js';
import { lettersOfYear } from './letters.js';
import { awayWithoutFloating, lostContacts } from './lost-contact.js';
import { statsWorkbook } from './stats-export.js';
import { transferStats } from './stats.js';

function positiveId(raw: unknown, what: string): number {
  const id = Number(raw);
  if (!Number.isSafeInteger(id) || id <= 0) throw new HttpError(400, `${what}编号不正确`);
  return id;
}

function yearOf(raw: unknown): number {
  if (raw === undefined || raw === '') return new Date().getFullYear();
  const year = Number(raw);
  if (!Number.isInteger(year) || year < 1949 || year > 2200) throw new HttpError(400, '年份不正确');
  return year;
}

/** The endpoints of the transfer area beside its modules' own API. */
export async function transferRoutes(app: FastifyInstance): Promise<void> {
  const { runtime } = app;
  const module = (id: string) => runtime.module(id);
  const db = app.services.database.db;
  const actorOf = (req: FastifyRequest) => runtime.actorOf(currentUser(req));
  const scopeOf = async (req: FastifyRequest) => (await actorOf(req)).scope;
  const contactModules = () => ({ transferIn: module('transfer-in'), floating: module('floating') });

  if (module('member-contact')) {
    // Members with no contact for six months: [{memberId, name, orgId, lastContact}], longest first.
    app.get('/api/transfers/lost-contact', { config: perm('lost-contact:list') }, async (req) => lostContacts(db, await scopeOf(req), localToday(), contactModules()));

    app.post('/api/transfers/lost-contact/:memberId/stop', { config: perm('lost-contact:stop') }, async (req) => {
      const memberId = positiveId((req.params as { memberId: string }).memberId, '党员');
      await stopMembership(runtime, db, memberId, (req.body ?? {}) as DecisionInput, await actorOf(req), localToday());
      return { status: 200, message: '已停止党籍' };
    });

    app.post('/api/transfers/lost-contact/:memberId/restore', { config: perm('lost-contact:stop') }, async (req) => {
      const memberId = positiveId((req.params as { memberId: string }).memberId, '党员');
      await restoreMembership(runtime, db, memberId, (req.body ?? {}) as DecisionInput, await actorOf(req), localToday());
      return { status: 200, message: '已恢复党籍' };
    });

    // Members whose party standing was stopped, with the decision (for restoring).
    app.get('/api/transfers/stopped', { config: perm('lost-contact:list') }, async (req) => {
      const members = await runtime.records('member').list({ filter: { partyStatus: '3' }, query: { size: '1000', sort: 'name,asc' } }, await actorOf(req));
      const ids = members.content.map((m) => m.id);
      const decisions = ids.length
        ? await db.selectFrom('party_status_decisions').selectAll().where('member_id', 'in', ids).where('kind', '=', 'stop').orderBy('id', 'desc').execute()
        : [];
      return members.content.map((m) => {
        const d = decisions.find((x) => x.member_id === m.id);
        return { memberId: m.id, name: m.name, orgId: m.orgId, orgName: m.orgIdName, decidedOn: d?.decided_on ?? null, reason: d?.reason ?? null };
      });
    });

    app.get('/api/transfers/decisions/:memberId', { config: perm('lost-contact:list') }, async (req) => {
      const memberId = positiveId((req.params as { memberId: string }).memberId, '党员');
      await runtime.records('member').get(memberId, await actorOf(req));
      return decisionsOf(db, memberId);
    });

    // 自行脱党 candidates from the dues area; `available: false` until the dues area is wired in.
    app.get('/api/transfers/lapse-candidates', { config: perm('lost-contact:list') }, async (req) => {
      const content = await lapseCandidates(db, await scopeOf(req));
      return { available: content !== null, content: content ?? [] };
    });
  }

  const floating = module('floating');
  if (floating && module('member-contact')) {
    app.get('/api/transfers/floating-suggestions', { config: perm(floating.permissions.list) }, async (req) => awayWithoutFloating(db, await scopeOf(req), localToday(), floating));
  }

  app.get('/api/transfers/stats', { config: perm('transfer-stats:list') }, async (req) =>
    transferStats(db, module, await scopeOf(req), yearOf((req.query as { year?: string }).year)),
  );
  app.get('/api/transfers/stats/export', { config: perm('transfer-stats:export') }, async (req, reply) => {
    const stats = await transferStats(db, module, await scopeOf(req), yearOf((req.query as { year?: string }).year));
    return sendXlsx(reply, statsWorkbook(stats), `组织关系转接统计${stats.year}.xlsx`);
  });

  const out = module('transfer-out');
  if (out) {
    const sources = { db, dicts: app.services.dicts, config: app.services.config };
    const transferOf = async (req: FastifyRequest) => {
      const id = positiveId((req.params as { id: string }).id, '转出');
      return runtime.records('transfer-out').get(id, await actorOf(req));
    };
    // The register of a year's letter numbers, cancelled ones included.
    app.get('/api/transfers/letters', { config: perm(out.permissions.list) }, async (req) => lettersOfYear(db, runtime.ctx.school, yearOf((req.query as { year?: string }).year), await scopeOf(req)));
    app.get('/api/transfers/letters/:id', { config: perm(out.permissions.view) }, async (req) => letterData(sources, (await transferOf(req)) as Record<string, unknown>));
    app.get('/api/transfers/letters/:id/xlsx', { config: perm(out.permissions.view) }, async (req, reply) => {
      const data = await letterData(sources, (await transferOf(req)) as Record<string, unknown>);
      return sendXlsx(reply, letterWorkbook(data), `组织关系介绍信${data.letterNo}.xlsx`);
    });
  }
}
