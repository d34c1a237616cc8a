import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { DICT_PAGE, DICT_SIZE } from '../../shared/constants';
import type { DictDetail } from '../../shared/dicts';
import type { Page } from '../../shared/paging';
import { get } from './request/request';

export type { DictDetail };
export type DictPage = Page<DictDetail>;

/** The react-query key of a dictionary; the dictionary admin page invalidates `['dict']` after edits. */
export const dictQueryKey = (code: string) => ['dict', code] as const;

/** Entries seen so far, by dictionary code: what `dictLabel` reads outside React. */
const loaded = new Map<string, Map<string, string>>();

/** `GET api/dictDetail?dictName=<code>&page=0&size=9999` (spec S7.D1a, S9.L2). */
export async function fetchDict(code: string): Promise<DictPage> {
  const page = await get<DictPage>('/api/dictDetail', { dictName: code, page: DICT_PAGE, size: DICT_SIZE });
  loaded.set(code, new Map(page.content.map((e) => [e.value, e.label])));
  return page;
}

/** The label of a value in a dictionary already loaded; the value itself when unknown (never blank for a value). */
export function dictLabel(code: string, value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const text = String(value);
  return loaded.get(code)?.get(text) ?? text;
}

/** A dictionary's entries, cached for the session: select options and a label lookup. */
export function useDict(code: string | undefined) {
  const query = useQuery({
    queryKey: dictQueryKey(code ?? ''),
    queryFn: () => fetchDict(code!),
    enabled: !!code,
    staleTime: 10 * 60_000,
  });
  return useMemo(() => {
    const entries = query.data?.content ?? [];
    const labels = new Map(entries.map((e) => [e.value, e.label]));
    return {
      entries,
      loading: query.isLoading,
      options: entries.filter((e) => !e.disabled).map((e) => ({ value: e.value, label: e.label })),
      labelOf: (value: string | null | undefined) => (value == null ? '' : (labels.get(value) ?? value)),
    };
  }, [query.data, query.isLoading]);
}
