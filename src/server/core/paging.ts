import { ownValue } from '../../shared/own.js';
import { HttpError } from '../errors.js';

export interface Paging {
  offset: number;
  limit: number;
  page: number;
  size: number;
  /** [column, direction] pairs, columns taken only from the caller's whitelist. */
  order: [string, 'asc' | 'desc'][];
}

const MAX_SIZE = 1000;

/**
 * Reads the spec's paging query: `page` (0-based), `size`, `sort=field,asc|desc` (repeatable).
 * `sortable` maps the API's field names to SQL columns; any other sort field is a 400.
 */
export function parsePaging(query: unknown, sortable: Record<string, string>, fallback: [string, 'asc' | 'desc'][] = []): Paging {
  const q = (query ?? {}) as Record<string, unknown>;
  const page = q.page === undefined || q.page === '' ? 0 : Number(q.page);
  const size = q.size === undefined || q.size === '' ? 10 : Number(q.size);
  if (!Number.isInteger(page) || page < 0) throw new HttpError(400, '页码必须是不小于0的整数');
  if (!Number.isInteger(size) || size < 1 || size > MAX_SIZE) throw new HttpError(400, `每页条数必须是1到${MAX_SIZE}之间的整数`);
  const sorts = ([] as unknown[]).concat(q.sort ?? []).flatMap((s) => String(s).split(';')).filter(Boolean);
  const order: [string, 'asc' | 'desc'][] = [];
  for (const s of sorts) {
    const [field, dir = 'asc'] = s.split(',').map((x) => x.trim());
    // Own keys only: `__proto__`, `constructor`, `toString` would find inherited members (a 500, issue 38.11).
    const column = ownValue(sortable, field);
    const direction = dir.toLowerCase();
    if (typeof column !== 'string' || (direction !== 'asc' && direction !== 'desc')) throw new HttpError(400, `不支持的排序：${s}`);
    order.push([column, direction]);
  }
  return { page, size, offset: page * size, limit: size, order: order.length ? order : fallback };
}

export { likeContains } from '../db/text-search.js';
