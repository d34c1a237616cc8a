/**
 * 干部任免审批表 (LRMX): the form of a cadre assembled from the cadre base (basic fields, the résumé from
 * `cadre-resume`, rewards from `cadre-basic-assessment` and, when the module exists, the member's
 * `member-reward`, the last three yearly results, family), served as JSON for the print page and as an
 * .xlsx in the national layout (lrmx-xlsx.ts); and the import of an .lrmx file (lrmx-xml.ts) that creates
 * or updates a cadre, previewed field by field before it is applied.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import fs from 'node:fs';
import { sql } from 'kysely';
import { currentUser, perm } from '../../core/auth/guard.js';
import { fileRefToken } from '../../core/files/store.js';
import { fileStoreOf } from '../../core/files/upload.js';
import { registerImportMultipart } from '../../core/xlsx-upload.js';
import { sendXlsxBuffer } from '../../core/xlsx.js';
import { HttpError } from '../../errors.js';
import type { Actor } from '../../runtime/hooks.js';
import { fullYearsBetween, localToday } from '../../../shared/module-schema/computed.js';
import type { LrmxChange, LrmxForm, LrmxPreview } from '../../../shared/cadre-lrmx.js';
import { idCardInfo } from '../../../shared/validators.js';
import { attachmentHeader } from '../../core/xlsx.js';
import { isMasked, maskIdCard } from '../../runtime/sensitive.js';
import { lrmxMonth, lrmxText, parseLrmx, resumeEntries, type LrmxPerson } from './lrmx-xml.js';
import { lrmxWorkbook } from './lrmx-xlsx.js';
import { LRMX_FIELDS } from './lrmx-fields.js';
import { lrmxEntries, lrmxFileOf, lrmxZipOf } from './lrmx-file.js';
import { resumeProblems } from './rules.js';
import { resumeGapMonths } from './settings.js';

const dot = (date: unknown) => (typeof date === 'string' && date.length >= 7 ? `${date.slice(0, 4)}.${date.slice(5, 7)}` : '');
const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));
const IN_PROGRESS = [0, 1, 2, 3, 4];

/** 毕业院校系及专业 as the form reads it: the institution, then the major named as one (某大学计算机科学与技术专业). */
export function schoolAndMajor(e: { school: string | null; major: string | null }): string {
  const major = e.major?.trim();
  return `${e.school?.trim() ?? ''}${major ? (major.endsWith('专业') ? major : `${major}专业`) : ''}`;
}

/** The form of one cadre the actor may see (404 otherwise, as the record API answers). */
export async function lrmxForm(app: FastifyInstance, cadreId: number, actor: Actor): Promise<LrmxForm> {
  const c = await app.runtime.records('cadre').get(cadreId, actor);
  const db = app.services.database.db;
  const today = localToday();
  const [resume, education, family, assessments, rewards, appointment] = await Promise.all([
    sql<{ start_date: string; end_date: string | null; text: string | null }>`
      SELECT start_date::text, end_date::text, text FROM m_cadre_resume WHERE cadre_id = ${cadreId} ORDER BY start_date, id`.execute(db),
    sql<{ kind: string; school: string | null; major: string | null; education: string | null; degree: string | null }>`
      SELECT kind, school, major, education, degree FROM m_cadre_education WHERE cadre_id = ${cadreId} ORDER BY end_date DESC NULLS FIRST, id DESC`.execute(db),
    sql<{ relation: string | null; name: string; birth_date: string | null; political_status: string | null; workplace: string | null }>`
      SELECT relation, name, birth_date::text, political_status, workplace FROM m_cadre_family WHERE cadre_id = ${cadreId} ORDER BY relation, id`.execute(db),
    sql<{ year: number; result: string }>`SELECT year, result FROM m_cadre_assessment WHERE cadre_id = ${cadreId} ORDER BY year DESC LIMIT 3`.execute(db),
    rewardLines(app, cadreId, c.memberId as number | null),
    sql<{ unit: string | null; post: string | null; propose_reason: string | null }>`
      SELECT u.name AS unit, a.post, a.propose_reason FROM m_appointment a LEFT JOIN m_unit u ON u.id = a.unit_id
      WHERE a.cadre_id = ${cadreId} AND a.state = ANY(${IN_PROGRESS}::int[]) ORDER BY a.id DESC LIMIT 1`.execute(db),
  ]);
  const labels = Object.fromEntries(
    await Promise.all(['GB_JBXX_XL', 'GB_JBXX_XW', 'GB_JBXX_JTGX', 'DJ_COMM_ZZMM', 'GB_JBXX_ZW'].map(async (code) => [code, await app.services.dicts.labels(code)] as const)),
  ) as Record<string, Map<string, string>>;
  const label = (code: string, v: unknown) => (v ? (labels[code].get(String(v)) ?? String(v)) : '');
  const edu = (kind: string) => education.rows.find((e) => e.kind === kind);
  const full = edu('全日制教育');
  const part = edu('在职教育');
  const proposed = appointment.rows[0];
  const birth = c.birthDate as string | null;
  const currentPost = text(c.postTitle) || [c.unitIdName, c.postLabel].filter(Boolean).join('');
  return {
    cadreId,
    name: text(c.name),
    gender: text(c.genderLabel),
    birth: birth ? `${dot(birth)}（${fullYearsBetween(birth, today)}岁）` : '',
    ethnicity: text(c.ethnicityLabel),
    nativePlace: text(c.nativePlace),
    birthPlace: text(c.birthPlace),
    joinParty: dot(c.joinPartyDate),
    workStart: dot(c.workStartDate),
    health: text(c.health),
    title: text(c.titleLabel),
    speciality: text(c.speciality),
    fullTimeEducation: full ? label('GB_JBXX_XL', full.education) : text(c.educationLabel),
    fullTimeDegree: full ? label('GB_JBXX_XW', full.degree) : text(c.degreeLabel),
    fullTimeSchool: full ? schoolAndMajor(full) : text(c.graduatedFrom),
    partTimeEducation: part ? label('GB_JBXX_XL', part.education) : '',
    partTimeDegree: part ? label('GB_JBXX_XW', part.degree) : '',
    partTimeSchool: part ? schoolAndMajor(part) : '',
    currentPost,
    proposedPost: proposed ? `${proposed.unit ?? ''}${label('GB_JBXX_ZW', proposed.post)}` : '',
    proposedRemoval: proposed ? currentPost : '',
    resume: resume.rows.map((r) => `${dot(r.start_date)}--${r.end_date ? dot(r.end_date) : '       '}  ${text(r.text)}`),
    rewards: rewards.length ? rewards.join('；') : '无',
    assessments: assessments.rows.length ? [...assessments.rows].reverse().map((a) => `${a.year}年度考核${a.result}`).join('；') : '',
    reason: proposed?.propose_reason ?? '',
    family: family.rows.map((f) => ({
      relation: label('GB_JBXX_JTGX', f.relation),
      name: f.name,
      birth: dot(f.birth_date),
      age: f.birth_date ? fullYearsBetween(f.birth_date, today) : null,
      political: label('DJ_COMM_ZZMM', f.political_status),
      workplace: text(f.workplace),
    })),
    photo: typeof c.photo === 'string' && c.photo ? c.photo : null,
    filledAt: dot(today),
  };
}

/** 奖惩情况: the cadre base's rewards and punishments, and the member's (member-reward) when that module exists. */
async function rewardLines(app: FastifyInstance, cadreId: number, memberId: number | null): Promise<string[]> {
  const db = app.services.database.db;
  const own = (await sql<{ date: string | null; content: string | null; issuer: string | null }>`
    SELECT date::text, content, issuer FROM m_cadre_basic_assessment WHERE cadre_id = ${cadreId} AND kind IN ('奖励', '惩处') ORDER BY date, id`.execute(db)).rows;
  const lines = own.map((r) => `${dot(r.date)}${r.issuer ? ` ${r.issuer}` : ''} ${text(r.content)}`.trim());
  if (memberId && app.runtime.module('member-reward')) {
    const member = (await sql<{ date: string | null; name: string | null; doc_no: string | null }>`
      SELECT date::text, name, doc_no FROM m_member_reward WHERE member_id = ${memberId} ORDER BY date, id`.execute(db)).rows;
    lines.push(...member.map((r) => `${dot(r.date)} ${text(r.name)}${r.doc_no ? `（${r.doc_no}）` : ''}`.trim()));
  }
  return lines;
}

/** The photo's bytes for the .xlsx, when it is a JPEG or PNG the store holds. */
async function photoOf(app: FastifyInstance, photo: string | null): Promise<{ buffer: Buffer; extension: 'jpeg' | 'png' } | undefined> {
  const token = fileRefToken(photo);
  if (!token) return undefined;
  try {
    const store = fileStoreOf(app);
    const f = await store.get(token);
    const extension = f.mime === 'image/png' ? 'png' : f.mime === 'image/jpeg' ? 'jpeg' : undefined;
    return extension ? { buffer: await fs.promises.readFile(store.pathOf(f)), extension } : undefined;
  } catch {
    return undefined;
  }
}

// ---- import ----------------------------------------------------------------------------------------

interface Parsed {
  person: LrmxPerson;
  values: Record<string, string>;
  skipped: string[];
  resume: { startDate: string; endDate: string | null; text: string }[];
  family: { relation: string | null; relationText: string; name: string; birthDate: string | null; politicalStatus: string | null; workplace: string }[];
}

const lastDayOf = (month: string) => {
  const [y, m] = month.split('-').map(Number);
  return `${month}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')}`;
};

/** The file's values in the cadre base's terms: dictionary codes for labels, dates for months. */
async function interpret(app: FastifyInstance, person: LrmxPerson): Promise<Parsed> {
  const inverse = async (code: string) => new Map([...(await app.services.dicts.labels(code))].map(([v, l]) => [l, v]));
  const values: Record<string, string> = {};
  const skipped: string[] = [];
  const idInfo = idCardInfo(person.fields.ShenFenZheng ?? '');
  for (const f of LRMX_FIELDS) {
    const raw = (person.fields[f.tag] ?? '').trim();
    if (!raw || (f.field === 'idCard' && isMasked(raw))) continue; // an exported masked number is none
    if (f.dict) {
      const code = (await inverse(f.dict)).get(raw) ?? (await inverse(f.dict)).get(raw.replace(/族$/, '') + '族');
      if (code) values[f.field] = code;
      else skipped.push(`${f.title}“${raw}”不在字典中，未导入`);
    } else if (f.kind === 'month') {
      const month = lrmxMonth(raw);
      // The ID number knows the day of birth; the form only the month.
      if (month) values[f.field] = f.field === 'birthDate' && idInfo?.birthDate?.startsWith(month) ? idInfo.birthDate : `${month}-01`;
      else skipped.push(`${f.title}“${raw}”不是有效的年月，未导入`);
    } else values[f.field] = raw;
  }
  if (values.joinPartyDate) values.politicalStatus = '01';
  const relations = await inverse('GB_JBXX_JTGX');
  const politics = await inverse('DJ_COMM_ZZMM');
  return {
    person,
    values,
    skipped,
    resume: resumeEntries(person.fields.JianLi).map((e) => ({ startDate: `${e.start}-01`, endDate: e.end ? lastDayOf(e.end) : null, text: e.text })),
    family: person.family.map((m) => {
      const birth = lrmxMonth(m.ChuShengRiQi);
      return { relation: relations.get(m.ChengWei) ?? null, relationText: m.ChengWei, name: m.XingMing, birthDate: birth ? `${birth}-01` : null, politicalStatus: politics.get(m.ZhengZhiMianMao) ?? null, workplace: m.GongZuoDanWeiJiZhiWu };
    }),
  };
}

/** The cadre the file is about: by 身份证号, else by name and birth month; within the actor's units. */
async function matchCadre(app: FastifyInstance, p: Parsed, actor: Actor): Promise<Record<string, unknown> | null> {
  const db = app.services.database.db;
  const byId = p.values.idCard ? (await sql<{ id: number }>`SELECT id FROM m_cadre WHERE id_card = ${p.values.idCard}`.execute(db)).rows[0] : undefined;
  const month = p.values.birthDate?.slice(0, 7);
  const byName = byId ?? (month ? (await sql<{ id: number }>`SELECT id FROM m_cadre WHERE name = ${p.values.name} AND to_char(birth_date, 'YYYY-MM') = ${month} ORDER BY id LIMIT 1`.execute(db)).rows[0] : undefined);
  if (!byName) return null;
  try {
    const cadre = await app.runtime.records('cadre').get(byName.id, actor);
    // The form knows months only: a date of the same month the cadre has is kept (no change).
    for (const f of LRMX_FIELDS) {
      const have = cadre[f.field];
      if (f.kind === 'month' && typeof have === 'string' && p.values[f.field]?.slice(0, 7) === have.slice(0, 7)) p.values[f.field] = have;
    }
    return cadre;
  } catch (error) {
    if (error instanceof HttpError && error.statusCode === 404) throw new HttpError(403, `干部“${p.values.name}”不在您管理的单位范围内，不能导入`);
    throw error;
  }
}

async function preview(app: FastifyInstance, p: Parsed, cadre: Record<string, unknown> | null): Promise<LrmxPreview> {
  const changes: LrmxChange[] = [];
  for (const f of [...LRMX_FIELDS, { field: 'politicalStatus', title: '政治面貌', tag: '', dict: 'DJ_COMM_ZZMM' }]) {
    if (!(f.field in p.values)) continue;
    const after = p.values[f.field];
    const before = cadre?.[f.field];
    if (String(before ?? '') === after) continue;
    const show = async (v: unknown) => (v === null || v === undefined || v === '' ? '' : f.dict ? ((await app.services.dicts.labels(f.dict)).get(String(v)) ?? String(v)) : String(v));
    changes.push({ field: f.field, title: f.title, before: f.field === 'idCard' && before ? maskId(String(before)) : await show(before), after: f.field === 'idCard' ? maskId(after) : await show(after) });
  }
  const gap = await resumeGapMonths();
  return {
    name: p.values.name,
    cadreId: (cadre?.id as number | undefined) ?? null,
    version: (cadre?.version as number | undefined) ?? null,
    changes,
    resume: p.resume,
    family: p.family.map((m) => ({ relation: m.relationText, name: m.name, birthDate: m.birthDate, workplace: m.workplace })),
    skipped: p.skipped,
    problems: resumeProblems(p.resume.map((r) => ({ ...r, fullTime: true })), gap),
  };
}

// The runtime's one mask (issue 38.4): the stored number is not told by the preview either.
const maskId = (id: string) => maskIdCard(id);

interface Upload {
  bytes: Buffer;
  filename: string;
  fields: Record<string, string>;
}

const safeDecode = (name: string) => {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
};

async function readLrmxUpload(req: FastifyRequest): Promise<Upload> {
  if (!req.isMultipart()) throw new HttpError(400, '请选择任免审批表文件（.lrmx）');
  let bytes: Buffer | undefined;
  let filename = '';
  const fields: Record<string, string> = {};
  for await (const part of req.parts()) {
    if (part.type === 'field') fields[part.fieldname] = String(part.value);
    else if (!bytes) {
      filename = safeDecode(part.filename ?? '');
      if (!/\.(lrmx|zip)$/i.test(filename)) throw new HttpError(400, '只能导入任免审批表文件（.lrmx）或其压缩包（.zip）', { errors: [{ field: 'file', message: '请选择 .lrmx 或 .zip 文件' }] });
      bytes = await part.toBuffer();
    } else part.file.resume();
  }
  if (!bytes) throw new HttpError(400, '请选择任免审批表文件（.lrmx）');
  return { bytes, filename, fields };
}

const numberOf = (v: string | undefined) => (v && /^\d+$/.test(v) ? Number(v) : undefined);

/** Applies the file: the cadre's fields, its résumé and family replaced, in one transaction. */
async function apply(app: FastifyInstance, p: Parsed, cadre: Record<string, unknown> | null, fields: Record<string, string>, actor: Actor, ownerId: number) {
  const expected = numberOf(fields.cadreId) ?? null;
  if (expected !== ((cadre?.id as number | undefined) ?? null) || (cadre && numberOf(fields.version) !== cadre.version)) {
    throw new HttpError(409, '干部信息在预览之后已有变化，请重新预览后再导入');
  }
  const runtime = app.runtime;
  const photo = await savePhoto(app, p.person.fields.ZhaoPian, ownerId, cadre);
  return runtime.ctx.transaction(async (trx) => {
    const cadres = runtime.records('cadre');
    const values: Record<string, unknown> = { ...p.values, ...(photo && { photo }) };
    let id: number;
    if (cadre) {
      id = cadre.id as number;
      await cadres.update({ id, version: cadre.version, ...values }, actor, { trx });
    } else {
      const unitId = numberOf(fields.unitId);
      if (!unitId) throw new HttpError(400, '新建干部须选择所在单位', { errors: [{ field: 'unitId', message: '请选择所在单位' }] });
      id = (await cadres.create({ ...values, unitId, category: fields.category || '3' }, actor, { trx })).id as number;
    }
    if (p.resume.length) {
      const resumes = runtime.records('cadre-resume');
      const old = (await sql<{ id: number }>`SELECT id FROM m_cadre_resume WHERE cadre_id = ${id}`.execute(trx)).rows.map((r) => r.id);
      if (old.length) await resumes.remove(old, actor, { trx });
      for (const r of p.resume) await resumes.create({ cadreId: id, ...r, fullTime: true }, actor, { trx });
    }
    if (p.family.length) {
      const family = runtime.records('cadre-family');
      const old = (await sql<{ id: number }>`SELECT id FROM m_cadre_family WHERE cadre_id = ${id}`.execute(trx)).rows.map((r) => r.id);
      if (old.length) await family.remove(old, actor, { trx });
      for (const m of p.family) {
        await family.create({ cadreId: id, relation: m.relation ?? undefined, name: m.name, birthDate: m.birthDate ?? undefined, politicalStatus: m.politicalStatus ?? undefined, workplace: m.workplace || undefined }, actor, { trx });
      }
    }
    return { cadreId: id, created: !cadre };
  });
}

/** The form's photo (base64 JPEG) stored as a file, when the cadre has none yet. */
async function savePhoto(app: FastifyInstance, base64: string | undefined, ownerId: number, cadre: Record<string, unknown> | null): Promise<string | undefined> {
  if (!base64 || (cadre && cadre.photo)) return undefined;
  const bytes = Buffer.from(base64.replace(/\s+/g, ''), 'base64');
  const png = bytes.subarray(0, 4).toString('hex') === '89504e47';
  if (!png && bytes.subarray(0, 2).toString('hex') !== 'ffd8') return undefined;
  const f = await fileStoreOf(app).save(Readable.from(bytes), { originalName: png ? 'photo.png' : 'photo.jpg', mime: png ? 'image/png' : 'image/jpeg', moduleName: 'cadre', ownerId, maxBytes: 5 * 1024 * 1024 });
  return `/api/file/view?id=${f.access_key}`;
}

export async function lrmxRoutes(app: FastifyInstance): Promise<void> {
  await registerImportMultipart(app);
  const view = perm('cadre-info:list');
  const write = perm('cadre-info:edit', 'cadre-info:add');
  const idOf = (req: FastifyRequest) => {
    const id = Number((req.params as { id: string }).id);
    if (!Number.isSafeInteger(id) || id < 1) throw new HttpError(404, '干部不存在');
    return id;
  };
  const actorOf = (req: FastifyRequest) => app.runtime.actorOf(currentUser(req));
  app.get('/api/cadre/:id/lrmx', { config: view }, async (req) => lrmxForm(app, idOf(req), await actorOf(req)));
  app.get('/api/cadre/:id/lrmx/xlsx', { config: view }, async (req, reply) => {
    const form = await lrmxForm(app, idOf(req), await actorOf(req));
    const book = lrmxWorkbook(form, await photoOf(app, form.photo));
    return sendXlsxBuffer(reply, Buffer.from(await book.xlsx.writeBuffer()), `干部任免审批表-${form.name}.xlsx`);
  });
  app.get('/api/cadre/:id/lrmx/file', { config: view }, async (req, reply) => {
    const f = await lrmxFileOf(app, idOf(req), await actorOf(req));
    return reply.header('content-type', 'application/xml; charset=utf-8').header('content-disposition', attachmentHeader(`${f.name}.lrmx`)).header('access-control-expose-headers', 'content-disposition').send(f.xml);
  });
  app.get('/api/cadre/lrmx/zip', { config: view }, async (req, reply) => {
    const ids = String((req.query as { ids?: string }).ids ?? '').split(',').filter(Boolean).map(Number);
    if (ids.some((id) => !Number.isSafeInteger(id) || id < 1)) throw new HttpError(400, '干部编号无效');
    const zip = await lrmxZipOf(app, [...new Set(ids)], await actorOf(req));
    return reply.header('content-type', 'application/zip').header('content-disposition', attachmentHeader('干部任免审批表.zip')).header('access-control-expose-headers', 'content-disposition').send(zip);
  });
  // One .lrmx answers its preview; a zip answers `{ files: [{ file, preview } | { file, error }] }`, each
  // file's problem named, nothing written.
  app.post('/api/cadre/lrmx/preview', { config: write }, async (req) => {
    const upload = await readLrmxUpload(req);
    const actor = await actorOf(req);
    const one = async (bytes: Buffer) => {
      const parsed = await interpret(app, parseLrmx(lrmxText(bytes)));
      return preview(app, parsed, await matchCadre(app, parsed, actor));
    };
    if (/\.lrmx$/i.test(upload.filename)) return one(upload.bytes);
    return { files: await perFile(await lrmxEntries(upload.bytes, upload.filename), async (e) => ({ preview: await one(e.bytes) })) };
  });
  // A zip applies per file (each in its own transaction): the field `files` (JSON) names, per file name,
  // the `cadreId` and `version` its preview showed; `unitId` places the new cadres. Answers each file's
  // result or error.
  app.post('/api/cadre/lrmx/apply', { config: write }, async (req) => {
    const upload = await readLrmxUpload(req);
    const actor = await actorOf(req);
    const one = async (bytes: Buffer, fields: Record<string, string>) => {
      const parsed = await interpret(app, parseLrmx(lrmxText(bytes)));
      return apply(app, parsed, await matchCadre(app, parsed, actor), fields, actor, currentUser(req).id);
    };
    if (/\.lrmx$/i.test(upload.filename)) return one(upload.bytes, upload.fields);
    let plan: Record<string, { cadreId?: number | null; version?: number | null }>;
    try {
      plan = JSON.parse(upload.fields.files ?? '{}') as typeof plan;
      if (!plan || typeof plan !== 'object' || Array.isArray(plan)) throw new Error('not an object');
    } catch {
      throw new HttpError(400, '导入清单（files）格式错误', { errors: [{ field: 'files', message: '应为按文件名给出的干部编号与版本' }] });
    }
    return {
      files: await perFile(await lrmxEntries(upload.bytes, upload.filename), async (e) => {
        const p = plan[e.name] ?? {};
        return { result: await one(e.bytes, { ...upload.fields, cadreId: p.cadreId ? String(p.cadreId) : '', version: p.version ? String(p.version) : '' }) };
      }),
    };
  });
}

/** Runs each file of a zip on its own; an error of one is named with its file and does not stop the others. */
async function perFile<T>(entries: { name: string; bytes: Buffer }[], run: (e: { name: string; bytes: Buffer }) => Promise<T>) {
  const out: ({ file: string } & (T | { error: string; status: number }))[] = [];
  for (const e of entries) {
    try {
      out.push({ file: e.name, ...(await run(e)) });
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      out.push({ file: e.name, error: error.message, status: error.statusCode });
    }
  }
  return out;
}
