/**
 * 模板管理 (docs/work.md "Templates"): templates are records of the module `doc-template`; this area checks
 * their files when saved (hook `template.checkFile`) and fills them from a record of their source module:
 * - `GET  /api/templates/usable?module=`                          enabled templates the caller may fill
 * - `GET  /api/templates/:id/render?record=&format=docx|pdf|xlsx&inline=1`  one record's document
 * - `POST /api/templates/:id/bulk` `{ ids? | filter?, format }`   many records as a background job (202 `{ jobId }`):
 *   one PDF of all of them, or a zip of one file each; `GET /api/jobs/:id` tells its progress, and its owner
 *   gets a message with a link to the page when it is done.
 * The caller needs `service-template:render` and the source module's view permission; the record must lie in
 * their data scope (404 otherwise, as the module's own detail answers), and identity-card numbers are masked
 * as the module's detail masks them.
 */
import fs from 'node:fs';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import PizZip from 'pizzip';
import { currentUser, perm } from '../../core/auth/guard.js';
import { hasAnyPermission, type SessionUser } from '../../core/auth/session-user.js';
import { fileLookup, fileRefToken, type FileStore } from '../../core/files/store.js';
import { fileStoreOf } from '../../core/files/upload.js';
import { attachmentHeader } from '../../core/xlsx.js';
import type { DB } from '../../db/types.js';
import { HttpError } from '../../errors.js';
import { registerHook } from '../../runtime/index.js';
import { JobFailure, jobsOf } from '../../runtime/jobs.js';
import type { RuntimeModule } from '../../runtime/module.js';
import { readVisible, serveRecords } from '../../runtime/read-policy.js';
import { localToday } from '../../../shared/module-schema/computed.js';
import { docxToPdf } from './docx-pdf.js';
import { renderTemplate, templateTags, type TemplateKind, type TemplateTags } from './placeholders.js';
import { recordData, referencedFields, unknownPlaceholders, vocabulary } from './values.js';

export const TEMPLATE_MODULE = 'doc-template';
export const TEMPLATE_RENDER = 'service-template:render';
/** Records one bulk job renders at most. */
export const BULK_LIMIT = 500;
const PAGE_PATH = '/service/work/template';

type Runtime = FastifyInstance['runtime'];
type Row = Record<string, unknown>;
type Format = 'docx' | 'pdf' | 'xlsx';

const MIME: Record<Format | 'zip', string> = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
  zip: 'application/zip',
};

/** The app's file store and runtime for the hook (keyed by the app's own module, so apps in one process stay apart). */
const wiring = new WeakMap<RuntimeModule, { store: FileStore; runtime: Runtime }>();

const fileName = (ref: unknown) => {
  const m = /[?&]name=([^&]*)/.exec(String(ref ?? ''));
  return m ? decodeURIComponent(m[1]) : '';
};

/** The bytes of a template's file; `db` is the caller's transaction when inside one (the embedded database waits otherwise). */
async function templateBytes(store: FileStore, ref: unknown, db: Kysely<DB>): Promise<Buffer> {
  const token = fileRefToken(String(ref ?? ''));
  if (!token) throw new HttpError(400, '请上传模板文件', { errors: [{ field: 'file', message: '请上传模板文件' }] });
  const [column, value] = fileLookup(token);
  const f = await db.selectFrom('files').select('storage_name').where(column, '=', value as never).executeTakeFirst();
  if (!f) throw new HttpError(400, '模板文件不存在，请重新上传', { errors: [{ field: 'file', message: '模板文件不存在，请重新上传' }] });
  return fs.promises.readFile(store.pathOf(f)).catch(() => {
    throw new HttpError(400, '模板文件内容已丢失，请重新上传', { errors: [{ field: 'file', message: '模板文件内容已丢失，请重新上传' }] });
  });
}

/** The tags of a template file, refused (400, naming them) when its module does not know some. */
export async function checkTemplate(kind: TemplateKind, bytes: Buffer, source: RuntimeModule, moduleOf: (id: string) => RuntimeModule | undefined): Promise<TemplateTags> {
  const vocab = vocabulary(source, moduleOf);
  const tags = await templateTags(kind, bytes, vocab.loops.keys());
  const unknown = unknownPlaceholders(tags, vocab);
  if (unknown.length) {
    const message = `模板中有“${source.title}”模块没有的占位符：${unknown.join('、')}`;
    throw new HttpError(400, message, { errors: [{ field: 'file', message }], unknown });
  }
  if (!tags.names.length && !Object.keys(tags.loops).length) {
    throw new HttpError(400, '模板中没有找到占位符，占位符写作 {字段名称}，如 {姓名}', { errors: [{ field: 'file', message: '模板中没有找到占位符' }] });
  }
  return tags;
}

export const tagList = (t: TemplateTags) => [...t.names, ...Object.entries(t.loops).map(([loop, inner]) => `#${loop}(${inner.join('、')})`)].join('、');

// A template is saved only with a file of its kind whose placeholders its source module knows (docs/work.md).
registerHook('template.checkFile', async (ctx) => {
  if (ctx.action === 'delete') return;
  const wired = wiring.get(ctx.module);
  if (!wired) return;
  const r = ctx.record;
  const kind = r.kind as TemplateKind;
  const source = wired.runtime.module(String(r.sourceModule ?? ''));
  if (!source) throw new HttpError(400, `数据来源模块“${String(r.sourceModule ?? '')}”不存在`, { errors: [{ field: 'sourceModule', message: '数据来源模块不存在，请从列表中选择' }] });
  const name = fileName(r.file);
  if (name && !name.toLowerCase().endsWith(`.${kind}`)) {
    throw new HttpError(400, `模板类型为 ${kind}，请上传 .${kind} 文件`, { errors: [{ field: 'file', message: `请上传 .${kind} 文件` }] });
  }
  const tags = await checkTemplate(kind, await templateBytes(wired.store, r.file, ctx.trx), source, (id) => wired.runtime.module(id));
  r.placeholders = tagList(tags).slice(0, 4000);
});

interface Template {
  id: number;
  name: string;
  kind: TemplateKind;
  source: RuntimeModule;
  bytes: Buffer;
  tags: TemplateTags;
}

/**
 * The records of a template's source module, filled into documents for one caller. The record and the
 * records its placeholders reach (`{hostId.name}`) are read through the runtime's read policy
 * (runtime/read-policy.ts): a referenced record outside the caller's scope fills nothing, identity numbers
 * are whole only where the caller may edit that record, and each whole one is logged.
 */
class Renderer {
  private readonly actor: ReturnType<Runtime['actorOf']>;
  constructor(
    private readonly runtime: Runtime,
    user: SessionUser,
    readonly template: Template,
    private readonly address = '',
  ) {
    this.actor = runtime.actorOf(user);
  }

  async data(recordId: number) {
    const { source, tags } = this.template;
    const actor = await this.actor;
    const ctx = this.runtime.ctx;
    const [record] = await serveRecords(ctx, source, actor, [await this.runtime.records(source.id).get(recordId, actor)], { address: this.address });
    const referenced = new Map<string, { module: RuntimeModule; record: Row }>();
    for (const f of referencedFields(source, tags)) {
      const target = this.runtime.module(f.ref!);
      const id = Number(record[f.name]);
      const found = target && id ? (await readVisible(ctx, target, actor, [id], { address: this.address })).get(id) : undefined;
      if (found) referenced.set(f.name, { module: target!, record: found });
    }
    return { record, data: recordData(source, record, referenced, localToday()) };
  }

  /** One record's filled template (docx or xlsx); its name is the template's and the record's, without extension. */
  async fill(recordId: number): Promise<{ bytes: Buffer; name: string }> {
    const { record, data } = await this.data(recordId);
    const t = this.template;
    const label = String((t.source.nameField && record[t.source.nameField.name]) || recordId).replace(/[\\/:*?"<>|]/g, '_');
    return { bytes: await renderTemplate(t.kind, t.bytes, data), name: `${t.name}-${label}` };
  }

  /** One record's document in `format`. */
  async render(recordId: number, format: Format): Promise<{ bytes: Buffer; name: string }> {
    const { bytes, name } = await this.fill(recordId);
    if (format === 'pdf') return { bytes: Buffer.from(await docxToPdf(bytes, name)), name: `${name}.pdf` };
    return { bytes, name: `${name}.${this.template.kind}` };
  }
}

function formatOf(raw: unknown, kind: TemplateKind): Format {
  const f = String(raw ?? kind);
  if (f === kind || (kind === 'docx' && f === 'pdf')) return f as Format;
  throw new HttpError(400, kind === 'docx' ? '文档模板可生成 docx 或 pdf' : '表格模板只能生成 xlsx', { errors: [{ field: 'format', message: '生成格式不正确' }] });
}

export async function templateRoutes(app: FastifyInstance): Promise<void> {
  const runtime = app.runtime;
  const store = fileStoreOf(app);
  const own = runtime.module(TEMPLATE_MODULE);
  if (!own) return;
  wiring.set(own, { store, runtime });

  /** An enabled template the caller may fill (404 otherwise; 403 without the source module's view permission). */
  async function templateFor(user: SessionUser, rawId: unknown): Promise<Template> {
    const id = Number(rawId);
    const row = Number.isSafeInteger(id) && id > 0 ? await runtime.records(TEMPLATE_MODULE).readRow(id) : undefined;
    if (!row || row.enabled === false) throw new HttpError(404, '模板不存在或已停用');
    const source = runtime.module(String(row.sourceModule));
    if (!source) throw new HttpError(404, `模板的数据来源模块“${String(row.sourceModule)}”不存在`);
    if (!hasAnyPermission(user, [source.permissions.view])) throw new HttpError(403, `无权查看“${source.title}”的记录`);
    const kind = row.kind as TemplateKind;
    const bytes = await templateBytes(store, row.file, runtime.ctx.db);
    const tags = await checkTemplate(kind, bytes, source, (m) => runtime.module(m));
    return { id, name: String(row.name), kind, source, bytes, tags };
  }

  app.get('/api/templates/usable', { config: perm(TEMPLATE_RENDER) }, async (req) => {
    const user = currentUser(req);
    const wanted = (req.query as { module?: string }).module;
    const rows = await runtime.ctx.anyDb.selectFrom('m_doc_template').select(['id', 'name', 'category', 'kind', 'source_module as sourceModule', 'description'])
      .where('enabled', 'is not', false).orderBy('id').execute() as Row[];
    return rows.flatMap((r) => {
      const source = runtime.module(String(r.sourceModule));
      if (!source || !hasAnyPermission(user, [source.permissions.view]) || (wanted && r.sourceModule !== wanted)) return [];
      return [{ ...r, sourceTitle: source.title }];
    });
  });

  app.get('/api/templates/:id/render', { config: perm(TEMPLATE_RENDER) }, async (req, reply) => {
    const q = req.query as { record?: string; format?: string; inline?: string };
    const t = await templateFor(currentUser(req), (req.params as { id: string }).id);
    const recordId = Number(q.record);
    if (!Number.isSafeInteger(recordId) || recordId <= 0) throw new HttpError(400, '请选择要生成文档的记录', { errors: [{ field: 'record', message: '请选择记录' }] });
    const format = formatOf(q.format, t.kind);
    const { bytes, name } = await new Renderer(runtime, currentUser(req), t, req.ip).render(recordId, format);
    const disposition = attachmentHeader(name);
    return reply
      .header('content-type', MIME[format])
      .header('content-disposition', q.inline === '1' ? disposition.replace(/^attachment/, 'inline') : disposition)
      .header('access-control-expose-headers', 'content-disposition')
      .header('cache-control', 'no-store')
      .send(bytes);
  });

  app.post('/api/templates/:id/bulk', { config: perm(TEMPLATE_RENDER) }, async (req, reply) => {
    const user = currentUser(req);
    const body = (req.body ?? {}) as { ids?: unknown; filter?: unknown; format?: unknown };
    const t = await templateFor(user, (req.params as { id: string }).id);
    const format = formatOf(body.format, t.kind);
    let ids: number[];
    if (Array.isArray(body.ids)) {
      ids = [...new Set(body.ids.map(Number))].filter((n) => Number.isSafeInteger(n) && n > 0);
    } else {
      // The current filter of the source module's list, in the caller's scope.
      const filter = body.filter && typeof body.filter === 'object' ? body.filter : {};
      const page = await runtime.records(t.source.id).list({ filter, query: { page: '0', size: String(BULK_LIMIT + 1) } }, await runtime.actorOf(user));
      ids = page.content.map((r) => Number(r.id));
    }
    if (!ids.length) throw new HttpError(400, '请选择要生成文档的记录', { errors: [{ field: 'ids', message: '没有要生成文档的记录' }] });
    if (ids.length > BULK_LIMIT) throw new HttpError(400, `一次最多生成 ${BULK_LIMIT} 份文档，请缩小筛选范围`, { errors: [{ field: 'ids', message: `最多 ${BULK_LIMIT} 条记录` }] });
    const renderer = new Renderer(runtime, user, t, req.ip);
    const jobId = await jobsOf(app).start({
      kind: 'template-render',
      title: `批量生成“${t.name}”`,
      ownerId: user.id,
      run: async (job) => {
        const files: { bytes: Buffer; name: string }[] = [];
        // Records the caller cannot read (or that are gone) are skipped and named in the result (issue 38.17).
        const skipped: number[] = [];
        for (const [i, id] of ids.entries()) {
          try {
            files.push(await renderer.fill(id));
          } catch (error) {
            if (!(error instanceof HttpError && error.statusCode === 404)) throw error;
            skipped.push(id);
          }
          await job.progress(i + 1, ids.length);
        }
        if (!files.length) throw new JobFailure(`所选记录均不存在或不在您的数据范围内（${skipped.length}条）`, { count: 0, skipped });
        let out: Buffer;
        let name: string;
        if (format === 'pdf') {
          name = `${t.name}（${files.length}份）.pdf`;
          out = Buffer.from(await docxToPdf(files.map((f) => f.bytes), name));
        } else {
          const zip = new PizZip();
          const seen = new Map<string, number>();
          for (const f of files) {
            const n = (seen.get(f.name) ?? 0) + 1;
            seen.set(f.name, n);
            zip.file(`${f.name}${n > 1 ? `（${n}）` : ''}.${format}`, f.bytes);
          }
          out = zip.generate({ type: 'nodebuffer', compression: 'DEFLATE' });
          name = `${t.name}（${files.length}份）.zip`;
        }
        const saved = await store.save(Readable.from([out]), { originalName: name, mime: MIME[format === 'pdf' ? 'pdf' : 'zip'], moduleName: null, tag: 'template-render', ownerId: user.id, maxBytes: 512 * 1024 * 1024 });
        // `download`: the file as every job names its file (shared/jobs.ts), so the generic progress offers it.
        return { count: files.length, skipped, download: { url: '/api/file/download', params: { id: saved.access_key }, name } };
      },
      link: (_r, id) => `${PAGE_PATH}?job=${id}`,
      done: (r) => `批量生成“${t.name}”已完成（${r.count}份${r.skipped.length ? `，${r.skipped.length}条记录无法读取已跳过` : ''}），点击查看并下载`,
    });
    return reply.code(202).send({ jobId });
  });
}
