/**
 * 填报管理 (issue 29, docs/forms.md): forms designed in the browser are modules stored at run time
 * (`form-…`, served by the generic `/api/m/{id}/…`); this area adds their collection:
 * - `GET  /api/forms`                        the forms the caller collects or fills
 * - `POST /api/forms`                        `{ schema, title }` → `{ id, version }` (a draft; 400 with the schema check's lines)
 * - `GET  /api/forms/{id}`                   the form, its versions
 * - `PUT  /api/forms/{id}/schema`            `{ schema, title? }` → a new version (records keep theirs)
 * - `GET  /api/forms/{id}/versions/{n}`      the schema of version n
 * - `GET  /api/forms/{id}/file`              the schema as a file for `schemas/modules/`
 * - `POST /api/forms/{id}/publish`           `{ shareType, orgIds?, roleIds?, deadline }`
 * - `GET  /api/forms/{id}/progress`          `[{ orgId, state, … }]` (CollectStatus)
 * - `GET  /api/forms/{id}/answer?orgId=`     one organisation's answer
 * - `POST /api/forms/{id}/fill`              `{ orgId?, values, submit }` draft or submission
 * - `POST /api/forms/{id}/return|accept`     `{ orgId, comment? }` the collector's decision
 * - `POST /api/forms/{id}/remind`            to-dos for the organisations not yet submitted
 * - `POST /api/forms/{id}/import?orgId=`     the collector fills for an organisation from an xlsx (join type 2)
 * - `GET  /api/forms/{id}/export`            every answer in one xlsx (a sheet per table-of-rows field)
 * - `POST /api/forms/{id}/stop`              share state 2: nothing changes any more
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CollectStatus, ShareState } from '../../../shared/constants.js';
import { currentUser, perm } from '../../core/auth/guard.js';
import { HttpError } from '../../errors.js';
import { registerHook, type HookContext } from '../../runtime/hooks.js';
import { readImportUpload, registerImportMultipart } from '../../runtime/import.js';
import { StoredModules } from '../../runtime/stored-modules.js';
import type { DB } from '../../db/types.js';
import type { Kysely } from 'kysely';
import { FORM_GUARD_HOOK, FORM_LATE_SOURCE, FORM_ORG_FIELD, FORM_PERMISSIONS } from './schema.js';
import { registerExpectedSource } from '../../runtime/reminders/model.js';
import { closedReason, FormService, lateOrganisations } from './service.js';
import { exportAnswers, readAnswer } from './xlsx.js';
import { menuPageLink } from '../../runtime/workflow/links.js';

const { list: LIST, fill: FILL, manage: MANAGE } = FORM_PERMISSIONS;

/**
 * The generic API of a form's module is the collector's; it keeps to the collection too: nothing before
 * publication or after the stop, only the form's organisations, and a submitted answer changes only
 * after it is returned.
 */
async function guardFormWrite(ctx: HookContext): Promise<void> {
  const trx = ctx.trx as Kysely<DB>;
  const form = await trx.selectFrom('forms').select(['id', 'share_state']).where('module', '=', ctx.module.id).executeTakeFirst();
  if (!form) return;
  const closed = closedReason(form);
  if (closed) throw new HttpError(409, closed);
  const records = ctx.action === 'delete' ? ctx.records : [{ ...ctx.previous, ...ctx.record }];
  for (const record of records) {
    const orgId = record[FORM_ORG_FIELD] as number;
    const fill = await trx.selectFrom('form_fills').select('state').where('form_id', '=', form.id).where('org_id', '=', orgId).executeTakeFirst();
    if (!fill) throw new HttpError(400, '该组织不在本表单的填报范围内', { errors: [{ field: FORM_ORG_FIELD, message: '该组织不在本表单的填报范围内' }] });
    if (fill.state >= CollectStatus.COLLECT_END) throw new HttpError(409, '已提交的填报不能修改，请先退回');
  }
}
registerHook(FORM_GUARD_HOOK, guardFormWrite);
registerExpectedSource(FORM_LATE_SOURCE, lateOrganisations);

export async function formsArea(app: FastifyInstance): Promise<void> {
  const forms = new FormService(app.runtime, () => app.services.messages);
  const id = (req: FastifyRequest) => (req.params as { id: string }).id;
  await registerImportMultipart(app);

  app.get('/api/forms', { config: perm(LIST) }, async (req) => forms.list(currentUser(req)));
  app.post('/api/forms', { config: perm(MANAGE) }, async (req, reply) => reply.code(201).send(await forms.create(req.body, currentUser(req))));
  app.get('/api/forms/:id', { config: perm(LIST) }, async (req) => forms.detail(id(req)));
  app.put('/api/forms/:id/schema', { config: perm(MANAGE) }, async (req) => forms.changeSchema(id(req), req.body, currentUser(req)));
  app.get('/api/forms/:id/versions/:version', { config: perm(LIST) }, async (req) =>
    forms.schemaVersion(id(req), Number((req.params as { version: string }).version)),
  );
  app.get('/api/forms/:id/file', { config: perm(MANAGE) }, async (req, reply) => {
    const latest = await app.runtime.stored.latest((await forms.form(id(req))).module);
    if (!latest) throw new HttpError(404, '填报表单不存在');
    return reply
      .header('content-type', 'application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="${latest.module}.json"`)
      .send(StoredModules.fileText(latest.schema));
  });
  app.post('/api/forms/:id/publish', { config: perm(MANAGE) }, async (req) => forms.publish(id(req), req.body, currentUser(req)));
  app.get('/api/forms/:id/progress', { config: perm(LIST) }, async (req) => forms.progress(id(req), currentUser(req)));
  app.get('/api/forms/:id/answer', { config: perm(LIST) }, async (req) => forms.answer(id(req), req.query as { orgId?: unknown }, currentUser(req)));
  app.post('/api/forms/:id/fill', { config: perm(FILL) }, async (req) => forms.fill(id(req), req.body, currentUser(req)));
  app.post('/api/forms/:id/return', { config: perm(MANAGE) }, async (req) => forms.decide(id(req), 'return', req.body, currentUser(req)));
  app.post('/api/forms/:id/accept', { config: perm(MANAGE) }, async (req) => forms.decide(id(req), 'accept', req.body, currentUser(req)));
  app.post('/api/forms/:id/remind', { config: perm(MANAGE) }, async (req) => forms.remind(id(req), currentUser(req)));
  app.post('/api/forms/:id/stop', { config: perm(MANAGE) }, async (req) => {
    await forms.stop(id(req), currentUser(req));
    return { status: 200, message: '已停止填报', shareState: ShareState.STOPPED };
  });
  app.post('/api/forms/:id/import', { config: perm(MANAGE) }, async (req) => {
    const form = await forms.form(id(req));
    const orgId = Number((req.query as { orgId?: string }).orgId);
    if (!Number.isSafeInteger(orgId) || orgId <= 0) throw new HttpError(400, '请选择代为填报的组织', { errors: [{ field: 'orgId', message: '请选择组织' }] });
    const upload = await readImportUpload(req);
    const module = app.runtime.module(form.module);
    if (!module) throw new HttpError(404, '填报表单不存在');
    await forms.importFor(form.module, orgId, await readAnswer(module, upload.buffer), currentUser(req));
    return { status: 200, message: '已代为填报', orgId, state: CollectStatus.COLLECT_END };
  });
  app.get('/api/forms/:id/export', { config: perm(MANAGE) }, async (req, reply) => {
    const form = await forms.form(id(req));
    const progress = (await forms.progress(form.module, currentUser(req))) as { orgName: string | null; orgId: number; state: number; stateLabel: string; recordId: number | null }[];
    const fills = progress.map((p) => ({ orgName: p.orgName ?? String(p.orgId), state: p.state, stateLabel: p.stateLabel, recordId: p.recordId }));
    // Over 10,000 rows a job: its message leads to 填报管理, which shows the job and its file.
    return exportAnswers(app, reply, form.title, app.runtime.records(form.module), fills, currentUser(req).id, await menuPageLink(app.runtime.ctx, 'core:forms'));
  });
}
