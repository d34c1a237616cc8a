import { Input, TreeSelect, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useOrgTree, type OrgTreeNode } from '../../../core/org-tree';

interface TreeOption {
  value: number;
  title: string;
  children?: TreeOption[];
}

const toOptions = (nodes: OrgTreeNode[]): TreeOption[] =>
  nodes.map((n) => ({ value: n.id, title: n.name, children: n.children?.length ? toOptions(n.children) : undefined }));

/** `12, 15，20` → [12, 15, 20]; anything else is dropped. */
const parseIds = (text: string) => [
  ...new Set(
    text
      .split(/[\s,，、]+/)
      .filter(Boolean)
      .map(Number)
      .filter((n) => Number.isInteger(n) && n > 0),
  ),
];
const sameIds = (a: number[], b: number[]) => a.length === b.length && a.every((n, i) => n === b[i]);

/** Organisation ids typed as a list; the text is kept while the user types. */
function IdsInput({ id, value = [], onChange, loading }: { id?: string; value?: number[]; onChange?: (ids: number[]) => void; loading: boolean }) {
  const [text, setText] = useState(value.join(', '));
  useEffect(() => {
    setText((current) => (sameIds(parseIds(current), value) ? current : value.join(', ')));
  }, [value]);
  return (
    <Input
      id={id}
      disabled={loading}
      placeholder="组织编号，多个用逗号分隔，如：12, 15"
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        onChange?.(parseIds(e.target.value));
      }}
    />
  );
}

/**
 * The organisations of a custom data scope: a tree from `GET /api/dzzxx/buildtree`, or, while the
 * organisation module does not answer it, organisation ids typed by hand.
 */
export function OrgPicker({ id, value, onChange }: { id?: string; value?: number[]; onChange?: (ids: number[]) => void }) {
  const tree = useOrgTree();
  if (tree.data && Array.isArray(tree.data)) {
    return (
      <TreeSelect
        id={id}
        multiple
        treeCheckable
        showCheckedStrategy={TreeSelect.SHOW_PARENT}
        placeholder="请选择组织（含下级）"
        treeData={toOptions(tree.data)}
        value={value}
        onChange={(ids: number[]) => onChange?.(ids)}
        showSearch
        treeNodeFilterProp="title"
        notFoundContent="暂无组织"
      />
    );
  }
  return (
    <>
      <IdsInput id={id} value={value} onChange={onChange} loading={tree.isLoading} />
      {tree.isError && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          组织树暂不可用，请直接输入组织编号（含其下级组织）。
        </Typography.Text>
      )}
    </>
  );
}
