/**
 * Pickers for x-ref fields, shared by the filter bar and the form: a searchable select that loads
 * records by name as you type (`GET /api/m/{ref}/options`), and the organisation tree
 * (`GET /api/dzzxx/buildtree`) with the searchable select as its fallback.
 */
import { useQuery } from '@tanstack/react-query';
import { Select, Spin, TreeSelect } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useOrgTree, type OrgTreeNode } from '../core/org-tree';
import { moduleApi, moduleKeys, type RefOption } from './api';

type Id = number;
export type RefValue = Id | Id[] | undefined;

export interface PickerProps {
  /** The referenced module (x-ref). */
  module: string;
  value?: RefValue;
  onChange?: (value: RefValue) => void;
  onBlur?: () => void;
  multiple?: boolean;
  placeholder?: string;
  disabled?: boolean;
  id?: string;
  /** Names already known for the current value (the record's `<field>Name`), so nothing is fetched to show them. */
  knownNames?: Record<number, string>;
  style?: React.CSSProperties;
  /** Who of the offered records may not be chosen (x-ref-eligible): shown greyed out with the reason. */
  eligibility?: Eligibility;
}

/** Asks the server who of some records may not be chosen; `key` changes with the values it depends on. */
export interface Eligibility {
  key: readonly unknown[];
  ask: (ids: number[]) => Promise<Record<string, string>>;
}

/** Id → reason for the records of `ids` that may not be chosen (none while loading or without `eligibility`). */
export function useIneligible(eligibility: Eligibility | undefined, ids: number[]): Record<string, string> {
  const query = useQuery({
    queryKey: ['eligible', ...(eligibility?.key ?? []), ids.join(',')],
    queryFn: () => eligibility!.ask(ids),
    enabled: !!eligibility && ids.length > 0,
    staleTime: 30_000,
  });
  return (eligibility && query.data) || NONE;
}
const NONE: Record<string, string> = {};

const idsOf = (value: RefValue): Id[] => (value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]);

/** Text typed into a picker, settled for `ms` (one request per pause, not per key). */
function useSettled(text: string, ms = 300): string {
  const [settled, setSettled] = useState(text);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(text), ms);
    return () => clearTimeout(timer);
  }, [text, ms]);
  return settled;
}

/** A searchable select over the records of a module; options load when it opens and as the user types. */
export function RefSelect({ module, value, onChange, onBlur, multiple, placeholder, disabled, id, knownNames, style, eligibility }: PickerProps) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const q = useSettled(text.trim());
  const search = useQuery({
    queryKey: [...moduleKeys.all(module), 'options', q],
    queryFn: () => moduleApi.options(module, { q: q || undefined, size: 30 }),
    enabled: open,
    staleTime: 60_000,
  });
  const ids = idsOf(value);
  const ineligible = useIneligible(eligibility, (search.data ?? []).map((o) => o.id));
  const unnamed = ids.filter((i) => !knownNames?.[i] && !search.data?.some((o) => o.id === i));
  const named = useQuery({
    queryKey: [...moduleKeys.all(module), 'names', unnamed],
    queryFn: () => moduleApi.options(module, { ids: unnamed, size: unnamed.length }),
    enabled: unnamed.length > 0,
    staleTime: 5 * 60_000,
  });
  const options = useMemo(() => {
    const byId = new Map<number, string>();
    for (const [k, v] of Object.entries(knownNames ?? {})) if (ids.includes(Number(k))) byId.set(Number(k), v);
    for (const o of named.data ?? []) byId.set(o.id, o.name);
    for (const o of search.data ?? []) byId.set(o.id, o.name);
    // One who may not be chosen is greyed out with the reason, unless already chosen (it can still be removed).
    return [...byId].map(([v, label]) => {
      const reason = ids.includes(v) ? undefined : ineligible[v];
      return reason ? { value: v, label, disabled: true, title: reason } : { value: v, label };
    });
    // ids as text: a new array each render, equal content
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [knownNames, named.data, search.data, ids.join(','), ineligible]);
  return (
    <Select<RefValue>
      id={id}
      showSearch={{ filterOption: false, onSearch: setText, searchValue: text }}
      allowClear
      mode={multiple ? 'multiple' : undefined}
      value={multiple ? ids : ids[0]}
      options={options}
      optionRender={(o) =>
        o.data.title ? (
          <span className="rf-ineligible" title={o.data.title}>
            {o.label}
            <small>{o.data.title}</small>
          </span>
        ) : (
          o.label
        )
      }
      placeholder={placeholder ?? '输入名称搜索'}
      disabled={disabled}
      style={{ width: '100%', ...style }}
      onOpenChange={setOpen}
      loading={search.isFetching}
      notFoundContent={search.isFetching ? <Spin size="small" /> : '无匹配数据'}
      onChange={(v) => {
        setText('');
        onChange?.(v === null ? undefined : v);
      }}
      onBlur={onBlur}
    />
  );
}

interface TreeOption {
  value: number;
  title: string;
  children?: TreeOption[];
}

const toTree = (nodes: OrgTreeNode[]): TreeOption[] =>
  nodes.map((n) => ({ value: n.id, title: n.name, children: n.children?.length ? toTree(n.children) : undefined }));

/** The organisation tree picker; falls back to the searchable select when the tree is not available. */
export function OrgTreeSelect(props: PickerProps) {
  const tree = useOrgTree();
  const treeData = useMemo(() => (Array.isArray(tree.data) ? toTree(tree.data) : undefined), [tree.data]);
  if (tree.isError || (tree.data && !Array.isArray(tree.data))) return <RefSelect {...props} module="org" />;
  const { value, onChange, onBlur, multiple, placeholder, disabled, id, style } = props;
  return (
    <TreeSelect<RefValue>
      id={id}
      showSearch
      allowClear
      treeLine
      multiple={multiple}
      treeCheckable={multiple}
      showCheckedStrategy={TreeSelect.SHOW_PARENT}
      loading={tree.isLoading}
      treeData={treeData}
      treeNodeFilterProp="title"
      treeDefaultExpandedKeys={treeData?.map((n) => n.value)}
      value={value}
      placeholder={placeholder ?? '请选择党组织'}
      disabled={disabled}
      style={{ width: '100%', ...style }}
      popupMatchSelectWidth={false}
      styles={{ popup: { root: { maxHeight: 420, overflow: 'auto', minWidth: 280 } } }}
      onChange={(v) => onChange?.(v === null ? undefined : (v as RefValue))}
      onBlur={onBlur}
    />
  );
}

/** The picker an x-ref field gets: the tree for organisations (or x-widget org-tree), else the searchable select. */
export function RefPicker(props: PickerProps & { tree?: boolean }) {
  const { tree, ...rest } = props;
  return tree || props.module === 'org' ? <OrgTreeSelect {...rest} /> : <RefSelect {...rest} />;
}

export type { RefOption };
