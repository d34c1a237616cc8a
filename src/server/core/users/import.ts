/**
 * 导入用户: the user template filled in and sent back (`POST /api/users/import`, multipart, one .xlsx).
 * Every row is checked with the rules of `POST /api/users` and all problems are reported; mode `partial`
 * writes the good rows, mode `all` nothing unless every row is good. User files are small, so the answer
 * comes at once: `{ total, imported, errors }`. New users get the configured initial password, marked
 * weak so that the first login forces a change, and no roles.
 */
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import type { Insertable, Kysely } from 'kysely';
import type { ImportResult, ImportRowError } from '../../../shared/module-schema/api.js';
import { checkEmail, checkMobile } from '../../../shared/validators.js';
import type { DB } from '../../db/types.js';
import type { UsersTable } from '../tables.js';
import { HttpError } from '../../errors.js';
import { rawText, tooManyRows, UNREADABLE_MESSAGE } from '../xlsx-read.js';
import { readImportUpload, registerImportMultipart, type ImportUpload } from '../xlsx-upload.js';
import { currentUser, perm } from '../auth/guard.js';
import { scopeOrgIds } from '../auth/org-scope.js';
import type { SessionUser } from '../auth/session-user.js';
import { randomBytes } from 'node:crypto';
import { hashPassword } from '../passwords.js';
import type { CoreServices } from '../services.js';
import { GENDER_DICT, PHONE_TAKEN, checkNickName, checkUsername, takenValues, usernameTaken } from './user-rules.js';

/** Rows one file may hold: an import answers synchronously. */
export const USER_IMPORT_MAX_ROWS = 5000;
const INSERT_CHUNK = 1000;

/** The template's columns, in order; `*` marks the required ones in its title row. */
const COLUMNS = [
  { key: 'username', title: '用户名', required: true },
  { key: 'nickName', title: '姓名', required: true },
  { key: 'phone', title: '手机号码' },
  { key: 'email', title: '邮箱' },
  { key: 'gender', title: '性别' },
  { key: 'orgCode', title: '所属组织编号' },
] as const;
type Column = (typeof COLUMNS)[number]['key'];
const TITLE = Object.fromEntries(COLUMNS.map((c) => [c.key, c.title])) as Record<Column, string>;
const isRequired = (c: (typeof COLUMNS)[number]) => 'required' in c && c.required;

/** The downloadable template: a note row, the title row, and a 男/女 drop-down under 性别. */
export function userTemplate(): ExcelJS.Workbook {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('用户');
  sheet.addRow(['说明：带 * 的列必填；用户名只能包含字母、数字、下划线、点和短横线；导入的用户使用初始密码，首次登录须修改。']);
  sheet.mergeCells(1, 1, 1, COLUMNS.length);
  sheet.getRow(1).font = { color: { argb: 'FFC0392B' } };
  const header = sheet.addRow(COLUMNS.map((c) => (isRequired(c) ? `${c.title}*` : c.title)));
  header.font = { bold: true };
  sheet.columns.forEach((c) => (c.width = 20));
  const gender = COLUMNS.findIndex((c) => c.key === 'gender') + 1;
  for (let r = 3; r <= 500; r++) sheet.getCell(r, gender).dataValidation = { type: 'list', allowBlank: true, formulae: ['"男,女"'] };
  return book;
}

interface SheetUser {
  row: number;
  values: Record<Column, string>;
}

/**
 * The data rows of an uploaded template (read as a stream; more rows than the limit are refused as soon
 * as they are met); 400 when the file is not one. The rows are kept: the checks compare them all.
 */
async function readUsers(upload: ImportUpload): Promise<SheetUser[]> {
  const sheet = upload.book?.firstVisibleSheet();
  if (!upload.book) throw new HttpError(400, UNREADABLE_MESSAGE);
  // The general row limit, or this import's own when that is lower (it answers at once).
  const maxRows = Math.min(USER_IMPORT_MAX_ROWS, upload.maxRows);
  const tooMany = (max: number) => (max < upload.maxRows ? new HttpError(400, `一次最多导入${max}个用户，请分批导入`) : tooManyRows(max));
  const table = sheet && (await upload.book.openTable(sheet, new Map<string, Column>(COLUMNS.map((c) => [c.title, c.key])), maxRows, tooMany));
  const found = new Set(table?.columns.values());
  const missing = COLUMNS.filter((c) => isRequired(c) && !found.has(c.key));
  if (!table || missing.length) throw new HttpError(400, `未找到${missing.map((c) => `“${c.title}”`).join('')}列，请使用导入模板填写`);
  const users: SheetUser[] = [];
  for await (const batch of table.batches(INSERT_CHUNK)) {
    for (const { row, cells } of batch) {
      const values = Object.fromEntries(COLUMNS.map((c) => [c.key, ''])) as Record<Column, string>;
      for (const [col, key] of table.columns) values[key] = rawText(cells[col - 1]).trim();
      users.push({ row, values });
    }
  }
  if (!users.length) throw new HttpError(400, '文件中没有要导入的用户');
  return users;
}

type NewUser = Omit<Insertable<UsersTable>, 'password_hash'>;

/**
 * Checks every row: the create API's field rules, usernames and phone numbers unique in the file and
 * in the database, 性别 a label of the gender dictionary, 所属组织编号 an organisation in the caller's data
 * scope (empty: the caller's own organisation, as the create API does). Answers each good row's user.
 */
async function checkUsers(services: CoreServices, caller: SessionUser, users: SheetUser[]) {
  const { db } = services.database;
  const column = (key: Column) => users.map((u) => u.values[key]).filter(Boolean);
  const [takenNames, takenPhones, orgIds, scope, genders] = await Promise.all([
    takenValues(db, 'username', column('username')),
    takenValues(db, 'phone', column('phone')),
    services.orgTree.idsByCode(column('orgCode')),
    scopeOrgIds(services.orgTree, caller.dataScope),
    services.dicts.entries(GENDER_DICT),
  ]);
  const genderByLabel = new Map(genders.filter((e) => !e.disabled).flatMap((e) => [[e.label, e.value], [e.value, e.value]]));
  const firstRow = { username: new Map<string, number>(), phone: new Map<string, number>() };
  const errors: ImportRowError[] = [];
  const good: { row: number; user: NewUser }[] = [];

  for (const { row, values: v } of users) {
    const problems: ImportRowError[] = [];
    const problem = (key: Column, message: string | undefined) => {
      if (message) problems.push({ row, column: TITLE[key], message });
    };
    /** Answers the earlier row holding the same value, and notes this one. */
    const repeated = (key: 'username' | 'phone') => {
      const earlier = firstRow[key].get(v[key]);
      if (earlier === undefined) firstRow[key].set(v[key], row);
      return earlier;
    };

    const usernameProblem = checkUsername(v.username);
    if (usernameProblem) problem('username', usernameProblem);
    else {
      const earlier = repeated('username');
      problem('username', earlier !== undefined ? `用户名“${v.username}”与第${earlier}行重复` : takenNames.has(v.username) ? usernameTaken(v.username) : undefined);
    }
    problem('nickName', checkNickName(v.nickName));
    if (v.phone) {
      const phoneProblem = checkMobile(v.phone);
      const earlier = phoneProblem ? undefined : repeated('phone');
      problem('phone', phoneProblem ?? (earlier !== undefined ? `手机号码与第${earlier}行重复` : takenPhones.has(v.phone) ? PHONE_TAKEN : undefined));
    }
    if (v.email) problem('email', checkEmail(v.email));
    const gender = v.gender ? genderByLabel.get(v.gender) : null;
    if (gender === undefined) problem('gender', '性别请填写“男”或“女”');
    const orgId = v.orgCode ? orgIds.get(v.orgCode) : caller.orgId;
    if (v.orgCode && orgId === undefined) problem('orgCode', `所属组织编号“${v.orgCode}”不存在`);
    else if (scope !== 'all' && !(orgId && scope.includes(orgId))) {
      problem('orgCode', v.orgCode ? `无权向组织“${v.orgCode}”导入用户` : '请填写您管理范围内的所属组织编号');
    }

    if (problems.length) errors.push(...problems);
    else good.push({ row, user: { username: v.username, nick_name: v.nickName, phone: v.phone || null, email: v.email || null, gender, org_id: orgId ?? null } });
  }
  return { errors, good };
}

/** Thrown inside the transaction to undo a mode-`all` import that lost a row to a concurrent write. */
class Refused extends Error {}

/** Writes the users in one transaction; rows whose username or phone was taken meanwhile are refused. */
async function insertUsers(db: Kysely<DB>, good: { row: number; user: NewUser }[], passwordHash: string, allOrNothing: boolean) {
  const refused: ImportRowError[] = [];
  const imported = await db
    .transaction()
    .execute(async (trx) => {
      const written = new Set<string>();
      for (let start = 0; start < good.length; start += INSERT_CHUNK) {
        const chunk = good.slice(start, start + INSERT_CHUNK).map((g) => ({ ...g.user, password_hash: passwordHash, password_weak: true }));
        const rows = await trx.insertInto('users').values(chunk).onConflict((oc) => oc.doNothing()).returning('username').execute();
        for (const r of rows) written.add(r.username);
      }
      for (const g of good) {
        if (!written.has(g.user.username)) refused.push({ row: g.row, column: TITLE.username, message: '保存失败：用户名或手机号码刚被其他用户占用' });
      }
      if (allOrNothing && refused.length) throw new Refused();
      return written.size;
    })
    .catch((error: unknown) => {
      if (error instanceof Refused) return 0;
      throw error;
    });
  return { imported, refused };
}

export async function userImportRoutes(app: FastifyInstance): Promise<void> {
  await registerImportMultipart(app);

  app.post('/api/users/import', { config: perm('user:import') }, async (req) => {
    const upload = await readImportUpload(req);
    const users = await readUsers(upload);
    const { errors, good } = await checkUsers(app.services, currentUser(req), users);
    let imported = 0;
    if (good.length && !(upload.mode === 'all' && errors.length)) {
      // No imported account can sign in yet: one hash of a secret nobody knows, for the whole file. The
      // administrator opens them under 未登录用户 (registerNoEnterUser), which gives each a one-time password.
      const written = await insertUsers(app.services.database.db, good, await hashPassword(randomBytes(32).toString('base64')), upload.mode === 'all');
      imported = written.imported;
      errors.push(...written.refused);
    }
    errors.sort((a, b) => a.row - b.row);
    return { total: users.length, imported, errors } satisfies ImportResult;
  });
}
