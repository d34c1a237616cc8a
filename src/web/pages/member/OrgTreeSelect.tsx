import { TreeSelect } from 'antd';
import { useOrgTree, type OrgTreeNode } from '../../core/org-tree';

interface TreeData {
  value: number;
  title: string;
  children?: TreeData[];
}

const toTreeData = (nodes: OrgTreeNode[]): TreeData[] =>
  nodes.map((n) => ({ value: n.id, title: `${n.name}（${n.memberCount}人）`, children: n.children ? toTreeData(n.children) : undefined }));


export function OrgTreeSelect({ value, onChange, width = 320 }: { value?: number; onChange: (id: number | undefined) => void; width?: number }) {
  const { data, isLoading } = useOrgTree(true);
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
