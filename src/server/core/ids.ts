import { HttpError } from '../errors.js';

/** Ids from the body shapes the clients send: [1,2], {ids:[1,2]}, {id:1}, 1. A 400 when there are none. */
export function idsOf(body: unknown): number[] {
  const raw = Array.isArray(body) ? body : typeof body === 'object' && body ? ((body as { ids?: unknown }).ids ?? (body as { id?: unknown }).id) : body;
  const list = ([] as unknown[]).concat(raw ?? []).map(Number);
  if (!list.length || list.some((n) => !Number.isInteger(n) || n <= 0)) throw new HttpError(400, '请选择要操作的记录');
  return list;
}
