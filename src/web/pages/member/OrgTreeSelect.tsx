import { TreeSelect } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { LONG_REQUEST_TIMEOUT } from '../../../shared/constants';
import { get } from '../../core/request/request';

interface OrgNode {
  id: number;
  name: string;
  memberCount: number;
  children?: OrgNode[];
}

interface TreeData {
  value: number;
  title: string;
  children?: TreeData[];
}

const toTreeData = (nodes: OrgNode[]): TreeData[] =>
  nodes.map((n) => ({ value: n.id, title: `${n.name}（${n.memberCount}人）`, children: n.children ? toTreeData(n.children) : undefined }));

/** The organisation tree the caller may see (`GET /api/dzzxx/buildtree`, 600 s timeout per spec). */
export function useOrgTree() {
  return useQuery({
    queryKey: ['org-tree'],
    queryFn: () => get<OrgNode[]>('/api/dzzxx/buildtree', undefined, { timeout: LONG_REQUEST_TIMEOUT }),
    staleTime: 60_000,
  });
}

export function OrgTreeSelect({ value, onChange, width = 320 }: { value?: number; onChange: (id: number | undefined) => void; width?: number }) {
  const { data, isLoading } = useOrgTree();
  return (
    <TreeSelect
      allowClear
      showSearch
      treeNodeFilterProp="title"
      placeholder="全部党组织"
      style={{ width }}
      loading={isLoading}
      value={value}
      onChange={(v) => onChange(v ?? undefined)}
      treeData={toTreeData(data ?? [])}
      treeDefaultExpandedKeys={data?.map((n) => n.id)}
      popupMatchSelectWidth={false}
    />
  );
}
