import type { Page } from '../../../../shared/paging';
import { get, post } from '../../../core/request/request';
import { PAGE_SIZE_OPTIONS } from '../../../core/usePagedQuery';

export { PAGE_SIZE_OPTIONS };

/** What a table asks its loader for: `page` is 0-based as on the wire; `filters` are the search bar's values. */
export interface ListQuery {
  page: number;
  size: number;
  /** `field,asc|desc`, when a column is sorted. */
  sort?: string;
  filters: Record<string, unknown>;
}

/** A table's data source: a server page, or a whole list (a tree for the menus). */
export type ListLoader<T> = (query: ListQuery) => Promise<Page<T> | T[]>;

/** Filter values worth sending: no undefined, null or blank strings, no empty lists. */
export function compact(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(values).filter(([, v]) => v !== undefined && v !== null && !(typeof v === 'string' && !v.trim()) && !(Array.isArray(v) && !v.length)),
  );
}

/** The paging query of spec §7: page (0-based), size, sort. */
export const pagingParams = (q: ListQuery) => ({ page: q.page, size: q.size, sort: q.sort });

/** `GET url?page&size&sort&<filters>`: most admin lists. */
export const getPage =
  <T>(url: string, fixed: Record<string, unknown> = {}): ListLoader<T> =>
  (q) =>
    get<Page<T>>(url, { ...pagingParams(q), ...compact(q.filters), ...fixed });

/** `POST url?page&size&sort` with the filters as the body: the user lists. */
export const postPage =
  <T>(url: string, toBody: (filters: Record<string, unknown>) => unknown = compact): ListLoader<T> =>
  (q) =>
    post<Page<T>>(url, toBody(q.filters), { params: pagingParams(q) });
