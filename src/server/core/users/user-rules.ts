/**
 * The rules of a user's fields, in one place for the create/edit API (as a JSON schema) and the import
 * (row by row, with the shared validators), so that what one refuses the other refuses too.
 */
import type { Kysely } from 'kysely';
import { EMAIL_PATTERN, MOBILE_PATTERN, USERNAME_MAX, USERNAME_MIN, USERNAME_PATTERN } from '../../../shared/validators.js';
import type { DB } from '../../db/types.js';

export { checkUsername } from '../../../shared/validators.js';
const NICK_NAME_MAX = 32;
/** The dictionary of the users' gender codes (GB/T 2261.1). */
export const GENDER_DICT = 'DJ_COMM_XB';

export const PHONE_TAKEN = '手机号码已被其他用户使用';
export const usernameTaken = (username: string) => `用户名“${username}”已存在`;

export const userFields = {
  username: { type: 'string', title: '用户名', minLength: USERNAME_MIN, maxLength: USERNAME_MAX, pattern: USERNAME_PATTERN.source },
  nickName: { type: 'string', title: '姓名', minLength: 1, maxLength: NICK_NAME_MAX },
  email: { type: ['string', 'null'], title: '邮箱', anyOf: [{ type: 'null' }, { const: '' }, { pattern: EMAIL_PATTERN.source }] },
  phone: { type: ['string', 'null'], title: '手机号码', anyOf: [{ type: 'null' }, { const: '' }, { pattern: MOBILE_PATTERN.source }] },
  gender: { type: ['string', 'null'], title: '性别' },
  orgId: { type: ['integer', 'null'], title: '所属组织' },
  enabled: { type: 'boolean', title: '状态' },
  useUkey: { type: 'boolean', title: '使用数字证书' },
  hasLeft: { type: 'boolean', title: '已离校' },
  roles: { type: 'array', title: '角色', items: { anyOf: [{ type: 'integer' }, { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } }] } },
};

export function checkNickName(nickName: string): string | undefined {
  if (!nickName) return '姓名不能为空';
  if ([...nickName].length > NICK_NAME_MAX) return `姓名不能超过${NICK_NAME_MAX}个字符`;
  return undefined;
}

/** Which of these usernames or phone numbers belong to a user already (other than `exceptId`). */
export async function takenValues(db: Kysely<DB>, column: 'username' | 'phone', values: string[], exceptId?: number): Promise<Set<string>> {
  if (!values.length) return new Set();
  let q = db.selectFrom('users').select(column).where(column, 'in', [...new Set(values)]);
  if (exceptId !== undefined) q = q.where('id', '<>', exceptId);
  const rows = await q.execute();
  return new Set(rows.map((r) => (r as Record<string, string>)[column]));
}
