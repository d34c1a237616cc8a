/**
 * What a step request carries (`{ version, comment, values }`), read and checked before the engine looks at
 * the record: the shape, the version for a single step, the comment's type and the organisation of a
 * step taken for one (`forOrg`).
 */
import { HttpError } from '../../errors.js';
import type { Step } from './model.js';

export interface StepInput {
  version?: number;
  comment: string;
  values: Record<string, unknown>;
}

export const COMMENT_MAX = 1000;
export const BATCH_MAX = 1000;

export function readInput(body: unknown, withVersion: boolean): StepInput {
  const b = (body ?? {}) as Record<string, unknown>;
  if (typeof b !== 'object' || Array.isArray(b)) throw new HttpError(400, '请求数据的格式不正确');
  if (withVersion && !Number.isSafeInteger(b.version)) {
    throw new HttpError(400, '缺少记录的版本号', { errors: [{ field: 'version', message: '缺少记录的版本号（读取记录时得到的 version）' }] });
  }
  if (b.comment !== undefined && b.comment !== null && typeof b.comment !== 'string') throw new HttpError(400, '意见的格式不正确', { errors: [{ field: 'comment', message: '意见必须是文字' }] });
  const values = b.values ?? {};
  if (typeof values !== 'object' || values === null || Array.isArray(values)) throw new HttpError(400, '办理信息的格式不正确', { errors: [{ field: 'values', message: 'values 必须是对象' }] });
  return { version: withVersion ? (b.version as number) : undefined, comment: String(b.comment ?? '').trim(), values: values as Record<string, unknown> };
}

/** The organisation a `forOrg` step is taken for, as given (400 when missing or not an id). */
export function forOrgValue(t: Step, values: Record<string, unknown>): number {
  const v = values[t.forOrg!];
  if (Number.isSafeInteger(v) && (v as number) > 0) return v as number;
  const title = t.inputs.find((f) => f.name === t.forOrg)?.title ?? '党组织';
  throw new HttpError(400, `请选择${title}`, { errors: [{ field: t.forOrg!, message: `请选择${title}` }] });
}
