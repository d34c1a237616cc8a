import type { FastifyInstance, FastifyRequest } from 'fastify';
import { perm } from '../../core/auth/guard.js';
import { sendXlsx } from '../../core/xlsx.js';
import { callerOf, coveredOrgs, idParam, pageParams, type Dues } from './context.js';
import { arrears, arrearsWorkbook, lapseCandidates, lapseWorkbook, yearReport, yearWorkbook } from './reports.js';
import { yearParam } from './standards.js';

const orgOf = (req: FastifyRequest) => idParam((req.query as { orgId?: string }).orgId, '所选党组织不正确', true);

/** Reports (menu 党费统计): a year per month and organisation, arrears, the six-month list; each as .xlsx too. */
export function reportRoutes(app: FastifyInstance, dues: Dues): void {
  const year = (req: FastifyRequest) => yearParam((req.query as { year?: string }).year ?? new Date().getFullYear());

  app.get('/api/dues/reports/year', { config: perm('dues-report:list') }, async (req) => yearReport(dues, await callerOf(req), year(req), orgOf(req)));

  app.get('/api/dues/reports/year/export', { config: perm('dues-report:export') }, async (req, reply) => {
    const report = await yearReport(dues, await callerOf(req), year(req), orgOf(req));
    return sendXlsx(reply, yearWorkbook(report), `${report.year}年党费收缴统计.xlsx`);
  });

  const arrearsOptions = (req: FastifyRequest) => ({ orgId: orgOf(req), closedOnly: (req.query as { period?: string }).period !== 'all' });

  app.get('/api/dues/reports/arrears', { config: perm('dues-report:list') }, async (req) => arrears(dues, await callerOf(req), { ...arrearsOptions(req), ...pageParams(req.query) }));

  app.get('/api/dues/reports/arrears/export', { config: perm('dues-report:export') }, async (req, reply) => {
    const rows = await arrears(dues, await callerOf(req), { ...arrearsOptions(req), page: 0, size: 1_000_000 });
    return sendXlsx(reply, arrearsWorkbook(rows.content), '党费欠缴名单.xlsx');
  });

  app.get('/api/dues/reports/lapse', { config: perm('dues-report:list') }, async (req) => {
    const rows = await lapseCandidates(dues.services.database.db, await coveredOrgs(dues, await callerOf(req), orgOf(req)));
    return { content: rows, totalElements: rows.length };
  });

  app.get('/api/dues/reports/lapse/export', { config: perm('dues-report:export') }, async (req, reply) => {
    const rows = await lapseCandidates(dues.services.database.db, await coveredOrgs(dues, await callerOf(req), orgOf(req)));
    return sendXlsx(reply, lapseWorkbook(rows), '连续六个月未交纳党费名单.xlsx');
  });
}
