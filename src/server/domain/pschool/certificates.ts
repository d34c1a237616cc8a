/**
 * Completion certificates (结业证书): issued when a class student completes (standing.ts), shown as a
 * printable page and a PDF with the number and a verification URL. The verification endpoint is public
 * and answers only whether the certificate is valid and the holder's name.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DxPcTypeLabel } from '../../../shared/constants.js';
import { escapeHtml } from '../../../shared/format.js';
import { getSchoolInfo } from '../../../shared/school-branding.js';
import { PUBLIC, currentUser, perm } from '../../core/auth/guard.js';
import { hasAnyPermission } from '../../core/auth/session-user.js';
import { attachmentHeader } from '../../core/xlsx.js';
import { HttpError } from '../../errors.js';
import { STUDY, idParam, param } from './common.js';
import { certificatePdf } from './pdf.js';
import { pschoolDb } from './tables.js';

const VERIFY_PATH = '/api/pschool/certificates/verify/';
const ADMIN = 'pschool-class:list';

export async function certificateRoutes(app: FastifyInstance): Promise<void> {
  const db = pschoolDb(app.services.database.db);
  const issuer = `${getSchoolInfo(app.services.appConfig.school).schoolName}党校`;
  const verifyUrl = (req: FastifyRequest, code: string) => `${req.protocol}://${req.host}${VERIFY_PATH}${code}`;

  const view = (req: FastifyRequest, c: Awaited<ReturnType<typeof load>>) => ({
    id: c.id, no: c.no, holderName: c.holder_name, className: c.class_name, batchName: c.batch_name,
    stage: c.dx_pc ? (DxPcTypeLabel as Record<number, string>)[c.dx_pc] ?? '' : '', hours: c.hours, issuedAt: c.issued_at,
    valid: !c.revoked_at, issuer, verifyUrl: verifyUrl(req, c.verify_code),
  });

  /** A certificate its holder, or a class administrator, may see. */
  async function load(req: FastifyRequest) {
    const user = currentUser(req);
    const c = await db.selectFrom('pschool_certificates').selectAll().where('id', '=', idParam(param(req, 'id'), '证书')).executeTakeFirst();
    if (!c || (c.user_id !== user.id && !hasAnyPermission(user, [ADMIN]))) throw new HttpError(404, '证书不存在');
    return c;
  }

  app.get('/api/pschool/certificates', { config: perm(STUDY) }, async (req) => {
    const rows = await db.selectFrom('pschool_certificates').selectAll().where('user_id', '=', currentUser(req).id).where('revoked_at', 'is', null).orderBy('issued_at', 'desc').execute();
    return rows.map((c) => view(req, c));
  });

  app.get('/api/pschool/certificates/:id', { config: perm(STUDY, ADMIN) }, async (req) => view(req, await load(req)));

  app.get('/api/pschool/certificates/:id/pdf', { config: perm(STUDY, ADMIN) }, async (req, reply) => {
    const c = await load(req);
    if (c.revoked_at) throw new HttpError(400, '该证书已作废');
    const v = view(req, c);
    const bytes = await certificatePdf({ ...v, issuedAt: new Date(c.issued_at) });
    return reply.header('content-type', 'application/pdf').header('content-disposition', attachmentHeader(`结业证书-${c.no}.pdf`)).header('access-control-expose-headers', 'content-disposition').send(Buffer.from(bytes));
  });

  // Public: what a QR code on the certificate opens. Only validity and the holder's name; HTML for a
  // browser, JSON otherwise.
  app.get(`${VERIFY_PATH}:code`, { config: { ...PUBLIC, rateLimit: { max: 30, timeWindow: '1 minute' } } }, async (req, reply) => {
    const code = param(req, 'code');
    const c = /^[\w-]{10,64}$/.test(code) ? await db.selectFrom('pschool_certificates').select(['no', 'holder_name', 'revoked_at']).where('verify_code', '=', code).executeTakeFirst() : undefined;
    const answer = c ? { valid: !c.revoked_at, no: c.no, holderName: c.holder_name } : { valid: false, no: null, holderName: null };
    if (!(req.headers.accept ?? '').includes('text/html')) return answer;
    const text = !c ? '未找到该证书' : c.revoked_at ? '该证书已作废' : '证书有效';
    const detail = c ? `<p>持有人：${escapeHtml(c.holder_name)}</p><p>证书编号：${escapeHtml(c.no)}</p>` : '';
    return reply
      .header('content-type', 'text/html; charset=utf-8')
      .send(`<!doctype html><html lang="zh-CN"><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>证书验证</title><body style="font-family:sans-serif;text-align:center;padding:48px 16px"><h1 style="color:${answer.valid ? '#237804' : '#a8071a'}">${text}</h1>${detail}<p style="color:#888">${escapeHtml(issuer)}</p></body></html>`);
  });
}
