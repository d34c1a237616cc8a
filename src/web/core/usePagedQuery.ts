import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TablePaginationConfig } from 'antd';
import { useState } from 'react';
import type { Page } from '../../shared/paging';

export type { Page };

/** The page sizes every list offers. */
export const PAGE_SIZE_OPTIONS = [10, 20, 50, 100];

/**
 * A server-paged list for an antd table: page (0-based on the wire, 1-based in antd) and size, the
 * previous page kept on screen while the next loads. Changing `filter` goes back to the first page.
 */
export function usePagedQuery<T, F>(key: string, filter: F, load: (page: number, size: number, filter: F) => Promise<Page<T>>, unit = '条') {
  const [paging, setPaging] = useState({ page: 0, size: 10, filter: JSON.stringify(filter) });
  const filterKey = JSON.stringify(filter);
  const page = paging.filter === filterKey ? paging.page : 0;
  const query = useQuery({ queryKey: [key, page, paging.size, filter], queryFn: () => load(page, paging.size, filter), placeholderData: keepPreviousData });
  const pagination: TablePaginationConfig = {
    current: page + 1,
    pageSize: paging.size,
    total: query.data?.totalElements ?? 0,
    showSizeChanger: true,
    pageSizeOptions: PAGE_SIZE_OPTIONS,
    showTotal: (total) => `共 ${total} ${unit}`,
    onChange: (p, s) => setPaging({ page: s === paging.size ? p - 1 : 0, size: s, filter: filterKey }),
  };
  return { query, rows: query.data?.content ?? [], pagination };
}
