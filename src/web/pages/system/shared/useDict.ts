import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { DICT_PAGE, DICT_SIZE } from '../../../../shared/constants';
import { get } from '../../../core/request/request';
import type { PageResult } from './list';

export interface DictEntry {
  id: number;
  value: string;
  label: string;
  dictSort: number;
  parent: string | null;
  disabled: boolean;
}

export const dictQueryKey = (name: string) => ['dict', name] as const;

/** A dictionary's entries (`GET api/dictDetail?dictName&page=0&size=9999`), as select options and a label lookup. */
export function useDict(name: string | undefined) {
  const query = useQuery({
    queryKey: dictQueryKey(name ?? ''),
    queryFn: () => get<PageResult<DictEntry>>('/api/dictDetail', { dictName: name, page: DICT_PAGE, size: DICT_SIZE }),
    enabled: !!name,
    staleTime: 5 * 60_000,
  });
  return useMemo(() => {
    const entries = query.data?.content ?? [];
    const labels = new Map(entries.map((e) => [e.value, e.label]));
    return {
      entries,
      options: entries.filter((e) => !e.disabled).map((e) => ({ value: e.value, label: e.label })),
      labelOf: (value: string | null | undefined) => (value == null ? '' : (labels.get(value) ?? value)),
    };
  }, [query.data]);
}
