import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { HttpError } from '../../errors.js';
import { PUBLIC, perm } from '../auth/guard.js';
import { likeContains, parsePaging } from '../paging.js';
import { BUILT_IN_KEYS, CONFIG_KEYS, SECRET_MASK, audienceOf, isSecretKey } from './keys.js';
import { ownValue } from '../../../shared/own.js';

const fields = {
  configKey: { type: 'string', title: '参数键', minLength: 1, maxLength: 100, pattern: '^[A-Za-z][\\w.]*$' },
  configValue: { type: 'string', title: '参数值', maxLength: 20000 },
  description: { type: 'string', title: '描述', maxLength: 500 },
};

/** The value check a key needs; undefined when the value is fine. */
function valueError(key: string, value: string): string | undefined {
  const declared = ownValue(CONFIG_KEYS, key);
  if (declared?.kind === 'boolean' && value !== 'true' && value !== 'false') return '参数值只能是true或false';
  if (declared?.kind === 'positiveInteger') {
    if (!/^[1-9]\d{0,8}$/.test(value)) return '参数值必须是正整数';
    if (declared.min && Number(value) < declared.min.value) return declared.min.message;
  }
  if (declared?.kind === 'regex' && value) {
    try {
      new RegExp(value);
    } catch {
      return '密码规则不是有效的正则表达式';
    }
  }
  if (declared?.kind === 'nonEmpty' && !value.trim()) return '网站标题不能为空';
  return undefined;
}

function assertValue(key: string, value: string) {
  const message = valueError(key, value);
  if (message) throw new HttpError(400, message, { errors: [{ field: 'configValue', message }] });
}

type Row = { id: number; config_key: string; config_value: string; description: string; created_at: Date; updated_at: Date };
/** A stored setting as administrators see it: a secret's value is masked (empty stays empty: "not set"). */
const dto = (r: Row) => {
  const secret = isSecretKey(r.config_key);
  const configValue = secret && r.config_value ? SECRET_MASK : r.config_value;
  return { id: r.id, configKey: r.config_key, configValue, secret, description: r.description, createTime: r.created_at, updateTime: r.updated_at };
};

/** System configuration (spec S7.D3/S7.D4): read by the web app before login, edited by administrators. */
export async function sysConfigRoutes(app: FastifyInstance): Promise<void> {
  const { database, config } = app.services;
  const { db } = database;

  async function assertUniqueKey(key: string, exceptId = 0) {
    const clash = await db.selectFrom('sys_config').select('id').where('config_key', '=', key).where('id', '<>', exceptId).executeTakeFirst();
    if (clash) throw new HttpError(400, `参数键“${key}”已存在`, { errors: [{ field: 'configKey', message: `参数键“${key}”已存在` }] });
  }

  // Read before login: anonymous callers get only the keys the login page and layout need (keys.ts);
  // signed-in users also the other non-secret keys; secrets go to nobody.
  /** Whether the first start seeded the demo data (seed/index.ts writes `initialised_at` with the flag); read once. */
  let demo: Promise<boolean> | undefined;
  const seededWithDemo = () =>
    (demo ??= db
      .selectFrom('app_meta')
      .select('value')
      .where('key', '=', 'initialised_at')
      .executeTakeFirst()
      .then((r) => {
        if (!r) demo = undefined; // not initialised yet: ask again next time
        return (r?.value as { demoData?: unknown } | undefined)?.demoData === true;
      }));

  app.get('/api/sysConfig/listAll', { config: PUBLIC }, async (req) => {
    const rows = await db.selectFrom('sys_config').select(['config_key', 'config_value']).orderBy('id').execute();
    const readable = (key: string) => {
      const audience = audienceOf(key);
      return audience === 'public' || (audience === 'signedIn' && req.user !== null);
    };
    const items = rows.filter((r) => readable(r.config_key)).map((r) => ({ configKey: r.config_key, configValue: r.config_value }));
    // The deployment's school (SCHOOL) unless an administrator configured one: branding on every page.
    if (!items.some((i) => i.configKey === 'school')) items.push({ configKey: 'school', configValue: app.services.appConfig.school });
    // A database seeded with the demo says so on every page (演示数据 in the header and on the login page, issue 38.16).
    if (await seededWithDemo()) items.push({ configKey: 'demoData', configValue: 'true' });
    return items;
  });

  app.get('/api/sysConfig', { config: perm('sysconfig:list') }, async (req) => {
    const paging = parsePaging(req.query, { id: 'id', configKey: 'config_key', createTime: 'created_at', updateTime: 'updated_at' }, [['id', 'asc']]);
    const blurry = String((req.query as { blurry?: unknown }).blurry ?? '').trim();
    let q = db.selectFrom('sys_config');
    if (blurry) {
      const like = likeContains(blurry);
      // Never match on a secret's value: the search would reveal it a character at a time.
      const secretKeys = (await db.selectFrom('sys_config').select('config_key').execute()).map((r) => r.config_key).filter(isSecretKey);
      q = q.where((eb) => eb.or([
        eb('config_key', 'ilike', like),
        secretKeys.length ? eb.and([eb('config_value', 'ilike', like), eb('config_key', 'not in', secretKeys)]) : eb('config_value', 'ilike', like),
        eb('description', 'ilike', like),
      ]));
    }
    const { total } = await q.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow();
    let rows = q.selectAll();
    for (const [c, d] of paging.order) rows = rows.orderBy(sql.ref(c), d);
    return { content: (await rows.limit(paging.limit).offset(paging.offset).execute()).map(dto), totalElements: total };
  });

  app.post('/api/sysConfig', { config: perm('sysconfig:add'), schema: { body: { type: 'object', required: ['configKey'], properties: fields } } }, async (req, reply) => {
    const b = req.body as { configKey: string; configValue?: string; description?: string };
    const value = b.configValue ?? '';
    assertValue(b.configKey, value);
    await assertUniqueKey(b.configKey);
    const row = await db.insertInto('sys_config').values({ config_key: b.configKey, config_value: value, description: b.description ?? '' }).returningAll().executeTakeFirstOrThrow();
    config.invalidate();
    return reply.code(201).send(dto(row));
  });

  app.put('/api/sysConfig', {
    config: perm('sysconfig:edit'),
    schema: { body: { type: 'object', anyOf: [{ required: ['id'] }, { required: ['configKey'] }], properties: { id: { type: 'integer', title: '参数', minimum: 1 }, ...fields } } },
  }, async (req) => {
    const b = req.body as { id?: number; configKey?: string; configValue?: string; description?: string };
    const row = await (b.id ? db.selectFrom('sys_config').selectAll().where('id', '=', b.id) : db.selectFrom('sys_config').selectAll().where('config_key', '=', b.configKey!)).executeTakeFirst();
    if (!row) throw new HttpError(404, '参数不存在或已被删除');
    const key = b.configKey ?? row.config_key;
    if (key !== row.config_key) {
      if (BUILT_IN_KEYS.has(row.config_key)) throw new HttpError(400, `系统内置参数“${row.config_key}”不能改名`);
      await assertUniqueKey(key, row.id);
    }
    // The masked value written back (the edit form shows the mask) keeps the secret as it is.
    const unchanged = b.configValue === undefined || (isSecretKey(row.config_key) && b.configValue === SECRET_MASK);
    if (unchanged && key !== row.config_key && isSecretKey(row.config_key) && !isSecretKey(key)) {
      throw new HttpError(400, '敏感参数改为普通参数名时，请重新填写参数值');
    }
    const value = unchanged ? row.config_value : b.configValue!;
    assertValue(key, value);
    const updated = await db
      .updateTable('sys_config')
      .set({ config_key: key, config_value: value, description: b.description ?? row.description, updated_at: new Date() })
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    config.invalidate();
    return dto(updated);
  });

  // Body: ids ([1,2], {ids}) or keys (["k1"], {configKey:"k1"}, {configKeys:[...]}).
  for (const url of ['/api/sysConfig/', '/api/sysConfig']) {
    app.delete(url, { config: perm('sysconfig:delete') }, async (req) => {
      const body = req.body as unknown;
      const raw = Array.isArray(body) ? body : typeof body === 'object' && body ? Object.values(body as object).flat() : [body];
      const isId = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v > 0) || (typeof v === 'string' && /^[1-9]\d*$/.test(v));
      const keys = [...new Set(raw.filter((v): v is string => typeof v === 'string' && !isId(v)))];
      const ids = [...new Set(raw.filter(isId).map(Number))];
      if (!keys.length && !ids.length) throw new HttpError(400, '请选择要删除的参数');
      const rows = await db
        .selectFrom('sys_config')
        .select(['id', 'config_key'])
        .where((eb) => eb.or([...(ids.length ? [eb('id', 'in', ids)] : []), ...(keys.length ? [eb('config_key', 'in', keys)] : [])]))
        .execute();
      if (rows.length !== ids.length + keys.length) throw new HttpError(404, '参数不存在或已被删除');
      const builtIn = rows.filter((r) => BUILT_IN_KEYS.has(r.config_key)).map((r) => r.config_key);
      if (builtIn.length) throw new HttpError(400, `系统内置参数不能删除：${builtIn.join('、')}`);
      await db.deleteFrom('sys_config').where('id', 'in', rows.map((r) => r.id)).execute();
      config.invalidate();
      return { status: 200, message: '删除成功' };
    });
  }
}
