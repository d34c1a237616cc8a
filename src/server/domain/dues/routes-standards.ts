import type { FastifyInstance } from 'fastify';
import { formatCents, parseYuan } from '../../../shared/dues/money.js';
import { calculateDues, DUES_RULE_SOURCE, isDuesCategory, needsBase } from '../../../shared/dues/rules.js';
import { LOGIN, perm } from '../../core/auth/guard.js';
import { sendXlsx } from '../../core/xlsx.js';
import { HttpError } from '../../errors.js';
import { readImportUpload, registerImportMultipart } from '../../runtime/import.js';
import { callerOf, idParam, type Dues } from './context.js';
import { importPayroll, payrollTemplate } from './payroll-import.js';
import { onlinePayment, offeredProviders } from './online.js';
import { duesSettings, saveDuesSettings, saveOnlineSettings } from './settings.js';
import { branchStandards, confirmStandards, generateStandards, yearParam } from './standards.js';
import { duesStatusOf } from './status.js';

/** Standards, the calculator and the school's settings (menu 党费管理). */
export function standardRoutes(app: FastifyInstance, dues: Dues): void {
  const db = dues.services.database.db;

  // The calculator of forms and tests: GET /api/dues/calculate?category=in-service&base=6500 → { due, rate, rule }.
  app.get('/api/dues/calculate', { config: LOGIN }, async (req) => {
    const q = req.query as { category?: string; base?: string };
    if (!isDuesCategory(q.category)) throw new HttpError(400, '缴纳类别只能是 in-service、retired、student 或 unemployed', { errors: [{ field: 'category', message: '缴纳类别不正确' }] });
    let baseCents: number | null = null;
    if (needsBase(q.category)) {
      baseCents = q.base === undefined || q.base === '' ? null : (parseYuan(q.base) ?? null);
      if (baseCents === null) throw new HttpError(400, '请填写党费基数（元，最多两位小数）', { errors: [{ field: 'base', message: '党费基数须为金额（元），最多两位小数' }] });
    }
    const { bands } = await duesSettings(db, dues.school);
    const s = calculateDues(q.category, baseCents, bands);
    return { category: s.category, base: s.baseCents === null ? null : formatCents(s.baseCents), due: formatCents(s.dueCents), rate: s.rate, rule: s.rule, source: DUES_RULE_SOURCE };
  });

  app.get('/api/dues/settings', { config: LOGIN }, async () => ({ ...(await duesSettings(db, dues.school)), online: await onlinePayment(dues) }));

  // Online payment: off by default; the simulator only in a demo (DEMO_DATA), where the demo chooses it.
  app.put('/api/dues/settings/online', { config: perm('dues:settings') }, async (req) => {
    await saveOnlineSettings(db, dues.school, req.body, offeredProviders(app.services.appConfig.demoData).map((p) => p.id), (await callerOf(req)).actor);
    return onlinePayment(dues);
  });

  app.put('/api/dues/settings', { config: perm('dues:settings') }, async (req) => {
    const caller = await callerOf(req);
    await saveDuesSettings(db, dues.school, req.body, caller.actor);
    return duesSettings(db, dues.school);
  });

  app.post('/api/dues/standards/generate', { config: perm('dues:add') }, async (req) => generateStandards(dues, await callerOf(req), (req.body ?? {}) as never));

  app.get('/api/dues/standards/branches', { config: perm('dues:list') }, async (req) => {
    const q = req.query as { year?: string; orgId?: string };
    return branchStandards(dues, await callerOf(req), q.year, q.orgId);
  });

  app.post('/api/dues/standards/confirm', { config: perm('dues:confirm') }, async (req) => confirmStandards(dues, await callerOf(req), (req.body ?? {}) as never));

  app.get('/api/dues/standards/payroll-template', { config: perm('dues:import') }, async (req, reply) => {
    const year = yearParam((req.query as { year?: string }).year ?? new Date().getFullYear());
    const { baseFormula } = await duesSettings(db, dues.school);
    return sendXlsx(reply, payrollTemplate(baseFormula, year), `${year}年党费工资表模板.xlsx`);
  });

  app.register(async (scoped) => {
    await registerImportMultipart(scoped);
    scoped.post('/api/dues/standards/import', { config: perm('dues:import') }, async (req) => {
      const year = yearParam((req.query as { year?: string }).year);
      const upload = await readImportUpload(req);
      return importPayroll(dues, await callerOf(req), upload, year);
    });
  });

  // A member's standing (unpaid months, paid up to): for pages of other areas (transfers).
  app.get('/api/dues/members/:id/status', { config: perm('dues:list', 'dues-report:list', 'dues-onsite:list') }, async (req) => {
    const id = idParam((req.params as { id: string }).id, '党员编号不正确');
    const caller = await callerOf(req);
    const member = await dues.db.selectFrom('m_member').select(['org_id']).where('id', '=', id).executeTakeFirst();
    if (!member || (caller.scope !== 'all' && (member.org_id === null || !caller.scope.includes(member.org_id)))) throw new HttpError(404, '党员不存在');
    return duesStatusOf(db, id);
  });
}
