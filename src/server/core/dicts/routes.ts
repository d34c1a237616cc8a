import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { DICT_SIZE } from '../../../shared/constants.js';
import { HttpError } from '../../errors.js';
import { LOGIN, perm } from '../auth/guard.js';
import { idsOf } from '../ids.js';
import { likeContains, parsePaging } from '../paging.js';
import type { DictDetail, DictDetailInput, DictDto, DictInput } from '../../../shared/dicts.js';
import type { DictItem } from './service.js';

/** app_meta key under which DictService records the shipped dictionary files (see service.ts). */
const SHIPPED_KEY = 'dict_files_applied';

const entryDto = (e: DictItem): DictDetail => ({ id: e.id, value: e.value, label: e.label, dictSort: e.sort, parent: e.parent ?? null, disabled: e.disabled ?? false });

const entryFields = {
  dictName: { type: 'string', title: '字典', minLength: 1, maxLength: 100 },
  dict: { type: 'object', title: '字典', properties: { name: { type: 'string', title: '字典' }, id: { type: 'integer', title: '字典' } } },
  value: { type: 'string', title: '字典值', minLength: 1, maxLength: 100, pattern: '^\\S(.*\\S)?$' },
  label: { type: 'string', title: '字典标签', minLength: 1, maxLength: 200 },
  dictSort: { type: 'integer', title: '排序', minimum: 0, maximum: 999999 },
  parent: { type: ['string', 'null'], title: '上级字典项', maxLength: 100 },
  disabled: { type: 'boolean', title: '停用' },
};
const dictFields = {
  code: { type: 'string', title: '字典编码', minLength: 1, maxLength: 100, pattern: '^[A-Za-z][\\w]*$' },
  name: { type: 'string', title: '字典名称', minLength: 1, maxLength: 100 },
  description: { type: 'string', title: '描述', maxLength: 500 },
};

/** An entry write: the shared input, the dictionary named by `dictName` (or `dict`), `id` on PUT. */
interface EntryBody extends Partial<DictDetailInput> {
  id?: number;
  dictName?: string;
  dict?: { name?: string; id?: number };
}

const fieldError = (field: string, message: string) => new HttpError(400, message, { errors: [{ field, message }] });

/** Dictionary entries for every signed-in user (value → label everywhere) and their administration. */
export async function dictRoutes(app: FastifyInstance): Promise<void> {
  const { database, dicts } = app.services;
  const { db } = database;

  async function known(code: string): Promise<string> {
    if (!(await dicts.exists(code))) throw new HttpError(400, `字典“${code}”不存在`);
    return code;
  }

  /** dictName from the query: "A,B" or repeated keys; at least one. */
  function namesOf(req: FastifyRequest): string[] {
    const raw = (req.query as { dictName?: string | string[] }).dictName;
    const names = [...new Set(([] as string[]).concat(raw ?? []).flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean))];
    if (!names.length) throw fieldError('dictName', '请指定字典名称');
    return names;
  }

  app.get('/api/dictDetail', { config: LOGIN }, async (req) => {
    const [code] = namesOf(req);
    const q = req.query as { label?: string; blurry?: string; page?: string; size?: string };
    const page = q.page ? Number(q.page) : 0;
    const size = q.size ? Number(q.size) : DICT_SIZE;
    // The web app always asks for page 0 of 9999 (spec S9.L2): more than the shared paging allows.
    if (!Number.isInteger(page) || page < 0) throw fieldError('page', '页码必须是不小于0的整数');
    if (!Number.isInteger(size) || size < 1 || size > DICT_SIZE) throw fieldError('size', `每页条数必须是1到${DICT_SIZE}之间的整数`);
    const blurry = String(q.label ?? q.blurry ?? '').trim();
    let items = await dicts.entries(await known(code));
    if (blurry) items = items.filter((e) => e.label.includes(blurry) || e.value.includes(blurry));
    return { content: items.slice(page * size, (page + 1) * size).map(entryDto), totalElements: items.length };
  });

  app.get('/api/dictDetail/cache', { config: LOGIN }, async (req) => (await dicts.entries(await known(namesOf(req)[0]))).map(entryDto));

  app.get('/api/dictDetail/map', { config: LOGIN }, async (req) => {
    const result: Record<string, DictDetail[]> = {};
    for (const code of namesOf(req)) result[code] = (await dicts.entries(await known(code))).map(entryDto);
    return result;
  });

  async function dictCodeOf(b: EntryBody): Promise<string> {
    if (b.dict?.id) {
      const row = await db.selectFrom('dicts').select('code').where('id', '=', b.dict.id).executeTakeFirst();
      if (!row) throw new HttpError(400, '字典不存在');
      return row.code;
    }
    const code = b.dictName ?? b.dict?.name;
    if (!code) throw fieldError('dictName', '字典不能为空');
    return known(code);
  }

  async function assertEntry(code: string, b: EntryBody, exceptId = 0) {
    if (b.value !== undefined) {
      const clash = await db.selectFrom('dict_details').select('id').where('dict_code', '=', code).where('value', '=', b.value).where('id', '<>', exceptId).executeTakeFirst();
      if (clash) throw fieldError('value', `字典值“${b.value}”已存在`);
    }
    if (b.parent) {
      if (b.parent === b.value) throw fieldError('parent', '上级字典项不能是自己');
      if (!(await dicts.entries(code)).some((e) => e.value === b.parent && e.id !== exceptId)) throw fieldError('parent', `上级字典项“${b.parent}”不存在`);
    }
  }

  app.post('/api/dictDetail', { config: perm('dict:add'), schema: { body: { type: 'object', required: ['value', 'label'], properties: entryFields } } }, async (req, reply) => {
    const b = req.body as EntryBody & { value: string; label: string };
    const code = await dictCodeOf(b);
    await assertEntry(code, b);
    const row = await db
      .insertInto('dict_details')
      .values({ dict_code: code, value: b.value, label: b.label, sort: b.dictSort ?? 999, parent: b.parent || null, disabled: b.disabled ?? false })
      .returning('id')
      .executeTakeFirstOrThrow();
    dicts.invalidate(code);
    return reply.code(201).send({ id: row.id });
  });

  app.put('/api/dictDetail', { config: perm('dict:edit'), schema: { body: { type: 'object', required: ['id'], properties: { id: { type: 'integer', title: '字典项' }, ...entryFields } } } }, async (req) => {
    const b = req.body as EntryBody & { id: number };
    const row = await db.selectFrom('dict_details').select(['dict_code', 'value']).where('id', '=', b.id).executeTakeFirst();
    if (!row) throw new HttpError(404, '字典项不存在或已被删除');
    await assertEntry(row.dict_code, b, b.id);
    const set: Record<string, unknown> = { updated_at: new Date() };
    if (b.value !== undefined) set.value = b.value;
    if (b.label !== undefined) set.label = b.label;
    if (b.dictSort !== undefined) set.sort = b.dictSort;
    if (b.parent !== undefined) set.parent = b.parent || null;
    if (b.disabled !== undefined) set.disabled = b.disabled;
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('dict_details').set(set).where('id', '=', b.id).execute();
      // Children follow a renamed value so the grouping survives.
      if (b.value !== undefined && b.value !== row.value) {
        await trx.updateTable('dict_details').set({ parent: b.value }).where('dict_code', '=', row.dict_code).where('parent', '=', row.value).execute();
      }
    });
    dicts.invalidate(row.dict_code);
    return { status: 200, message: '修改成功' };
  });

  app.delete('/api/dictDetail/:id', { config: perm('dict:delete'), schema: { params: { type: 'object', properties: { id: { type: 'integer', title: '字典项' } } } } }, async (req) => {
    const { id } = req.params as { id: number };
    const row = await db.selectFrom('dict_details').select(['dict_code', 'value']).where('id', '=', id).executeTakeFirst();
    if (!row) throw new HttpError(404, '字典项不存在或已被删除');
    const child = await db.selectFrom('dict_details').select('label').where('dict_code', '=', row.dict_code).where('parent', '=', row.value).executeTakeFirst();
    if (child) throw new HttpError(400, `请先删除下级字典项（如“${child.label}”）`);
    await db.deleteFrom('dict_details').where('id', '=', id).execute();
    dicts.invalidate(row.dict_code);
    return { status: 200, message: '删除成功' };
  });

  // ---- The dictionaries themselves ----------------------------------------------------------------

  const dictDto = (r: { id: number; code: string; name: string; description: string; created_at: Date; updated_at: Date; entries: number }): DictDto => ({
    id: r.id, code: r.code, name: r.name, description: r.description, entryCount: r.entries, createTime: r.created_at.toISOString(), updateTime: r.updated_at.toISOString(),
  });

  // Every dictionary's code and Chinese name, for pickers (the form designer's 字典选项): metadata, no entries.
  app.get('/api/dict/names', { config: LOGIN }, async () =>
    db.selectFrom('dicts').select(['code', 'name']).orderBy('name').orderBy('code').execute());

  app.get('/api/dict', { config: perm('dict:list') }, async (req) => {
    const paging = parsePaging(req.query, { id: 'd.id', code: 'd.code', name: 'd.name', createTime: 'd.created_at' }, [['d.code', 'asc']]);
    const blurry = String((req.query as { blurry?: unknown }).blurry ?? '').trim();
    let q = db.selectFrom('dicts as d');
    if (blurry) {
      const like = likeContains(blurry);
      q = q.where((eb) => eb.or([eb('d.code', 'ilike', like), eb('d.name', 'ilike', like), eb('d.description', 'ilike', like)]));
    }
    const { total } = await q.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow();
    let rows = q.selectAll('d').select((eb) => eb.selectFrom('dict_details as e').select(sql<number>`count(*)::int`.as('n')).whereRef('e.dict_code', '=', 'd.code').as('entries'));
    for (const [c, d] of paging.order) rows = rows.orderBy(sql.ref(c), d);
    const list = await rows.limit(paging.limit).offset(paging.offset).execute();
    return { content: list.map((r) => dictDto({ ...r, entries: r.entries ?? 0 })), totalElements: total };
  });

  app.post('/api/dict', { config: perm('dict:add'), schema: { body: { type: 'object', required: ['code', 'name'], properties: dictFields } } }, async (req, reply) => {
    const b = req.body as DictInput;
    if (await db.selectFrom('dicts').select('id').where('code', '=', b.code).executeTakeFirst()) throw fieldError('code', `字典编码“${b.code}”已存在`);
    const row = await db.insertInto('dicts').values({ code: b.code, name: b.name, description: b.description ?? '' }).returning('id').executeTakeFirstOrThrow();
    dicts.invalidate(b.code);
    return reply.code(201).send({ id: row.id });
  });

  app.put('/api/dict', { config: perm('dict:edit'), schema: { body: { type: 'object', required: ['id'], properties: { id: { type: 'integer', title: '字典' }, ...dictFields } } } }, async (req) => {
    const b = req.body as Partial<DictInput> & { id: number };
    const row = await db.selectFrom('dicts').select('code').where('id', '=', b.id).executeTakeFirst();
    if (!row) throw new HttpError(404, '字典不存在或已被删除');
    // Module schemas and stored records refer to the code: it is fixed once created.
    if (b.code !== undefined && b.code !== row.code) throw fieldError('code', '字典编码创建后不能修改');
    const set: Record<string, unknown> = { updated_at: new Date() };
    if (b.name !== undefined) set.name = b.name;
    if (b.description !== undefined) set.description = b.description;
    await db.updateTable('dicts').set(set).where('id', '=', b.id).execute();
    return { status: 200, message: '修改成功' };
  });

  for (const url of ['/api/dict', '/api/dict/']) {
    app.delete(url, { config: perm('dict:delete') }, async (req) => {
      const ids = idsOf(req.body);
      const rows = await db.selectFrom('dicts').select(['id', 'code']).where('id', 'in', ids).execute();
      if (rows.length !== new Set(ids).size) throw new HttpError(404, '字典不存在或已被删除');
      const meta = await db.selectFrom('app_meta').select('value').where('key', '=', SHIPPED_KEY).executeTakeFirst();
      const shipped = rows.filter((r) => r.code in ((meta?.value ?? {}) as object)).map((r) => r.code);
      if (shipped.length) throw new HttpError(400, `系统字典不能删除：${shipped.join('、')}`);
      await db.deleteFrom('dicts').where('id', 'in', ids).execute();
      rows.forEach((r) => dicts.invalidate(r.code));
      return { status: 200, message: '删除成功' };
    });
  }
}
