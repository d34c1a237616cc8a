/**
 * The list query of a module page. The total depends on the filter only: when just the page, its size
 * or the order change, the page is asked for with `count=false` and the total of the same filter is
 * reused (counting a big table costs the server more than reading a page). Anything that refreshes a
 * page already shown (the refresh button, a write invalidating the list, a window coming back into
 * focus) asks for the count again, so the total catches up with other people's changes.
 */
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { moduleApi, moduleKeys, type ListParams, type RecordPage } from '../api';

/** How long a total is reused for other pages of the same filter. */
const TOTAL_REUSE_MS = 60_000;

export function useListQuery(module: string, filter: Record<string, unknown>, params: ListParams) {
  const queryClient = useQueryClient();
  const totals = useRef(new Map<string, { total: number; at: number }>());
  const filterKey = JSON.stringify(filter);
  const queryKey = [...moduleKeys.list(module), filter, params.page, params.size, params.sort];
  return useQuery({
    queryKey,
    queryFn: async (): Promise<RecordPage> => {
      const known = totals.current.get(filterKey);
      // A page not shown before, of a filter whose total is fresh: skip the count.
      const reuse = known && Date.now() - known.at < TOTAL_REUSE_MS && queryClient.getQueryData(queryKey) === undefined ? known.total : undefined;
      let answer = await moduleApi.list(module, filter, reuse === undefined ? params : { ...params, count: false });
      // Rows went away since the total was counted (an empty page past the end): count after all.
      if (answer.totalElements === undefined && !answer.content.length && params.page > 0) answer = await moduleApi.list(module, filter, params);
      if (answer.totalElements !== undefined) totals.current.set(filterKey, { total: answer.totalElements, at: Date.now() });
      return { content: answer.content, totalElements: answer.totalElements ?? reuse ?? answer.content.length };
    },
    placeholderData: keepPreviousData,
  });
}
