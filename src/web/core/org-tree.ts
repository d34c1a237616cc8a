import { useQuery } from '@tanstack/react-query';
import type { AxiosRequestConfig } from 'axios';
import { LONG_REQUEST_TIMEOUT } from '../../shared/constants';
import type { OrgTreeNode } from '../../shared/org-tree';
import { get } from './request/request';

export type { OrgTreeNode };

/**
 * `GET /api/dzzxx/buildtree`: the organisations the caller may see, as a tree. Without member counts
 * (`withCount=false`) it is faster. Spec §7: building the tree may take long, so 600 s timeout.
 */
export function fetchOrgTree(withCount: boolean, config?: AxiosRequestConfig): Promise<OrgTreeNode[]> {
  return get<OrgTreeNode[]>('/api/dzzxx/buildtree', withCount ? undefined : { withCount: false }, { ...config, timeout: LONG_REQUEST_TIMEOUT });
}

/**
 * The organisation tree, cached: with member counts (the member pages' filter) or without (pickers,
 * which fall back to other inputs when it fails, so its errors are not announced).
 */
export function useOrgTree(withCount = false) {
  return useQuery({
    queryKey: ['org-tree', withCount ? 'counts' : 'plain'],
    queryFn: () => fetchOrgTree(withCount, withCount ? undefined : { skipErrorNotify: true, inPlace: true }),
    staleTime: withCount ? 60_000 : 10 * 60_000,
  });
}
