/**
 * The where tree of 综合查询 as the user edits it: groups (并且 / 或者) of conditions and of further
 * groups; each condition a field (the module's own or a referenced record's), an operator and a value
 * input that fits the field (dictionary choices, dates, numbers, organisations).
 */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Input, InputNumber, Radio, Select, Space } from 'antd';
import { QUERY_OP_LABELS, type QueryGroup, type QueryNode, type QueryOp } from '../../../shared/statistics';
import { useDict } from '../../core/dicts';
import { OrgTreeSelect } from '../member/OrgTreeSelect';
import type { QueryField, QueryModule } from './api';

export interface PathField extends QueryField {
  /** The field's path from the queried module (`orgId.type`). */
  path: string;
  /** Title with the reference's (`所在党支部·组织类别`). */
  label: string;
}

export interface EditCondition {
  key: number;
  field?: string;
  op?: QueryOp;
  value?: unknown;
}
export interface EditGroup {
  key: number;
  kind: 'and' | 'or';
  items: (EditCondition | EditGroup)[];
}

/** The module's fields and, one reference away, the fields of the records it refers to. */
export function pathFields(m: QueryModule | undefined, all: QueryModule[]): PathField[] {
  if (!m) return [];
  const own = m.fields.map((f) => ({ ...f, path: f.name, label: f.title }));
  const refs = m.fields.flatMap((f) => {
    const target = f.ref && f.kind !== 'array' ? all.find((x) => x.id === f.ref) : undefined;
    return target ? target.fields.filter((tf) => tf.stored).map((tf) => ({ ...tf, path: `${f.name}.${tf.name}`, label: `${f.title}·${tf.title}` })) : [];
  });
  return [...own, ...refs];
}

let nextKey = 1;
export const newCondition = (): EditCondition => ({ key: nextKey++ });
export const newGroup = (kind: 'and' | 'or' = 'and'): EditGroup => ({ key: nextKey++, kind, items: [newCondition()] });
const isGroup = (n: EditCondition | EditGroup): n is EditGroup => 'items' in n;

/** The operators that fit a field. */
export function opsFor(f: PathField | undefined): QueryOp[] {
  if (!f) return [];
  if (f.ref === 'org' && f.kind === 'integer') return ['subtree', 'eq', 'ne', 'isNull', 'notNull'];
  if (f.dict || f.enum) return ['eq', 'ne', 'in', 'notIn', 'isNull', 'notNull'];
  if (f.kind === 'string') return ['like', 'eq', 'ne', 'isNull', 'notNull'];
  if (f.kind === 'boolean') return ['eq', 'isNull', 'notNull'];
  if (f.kind === 'array') return ['eq', 'isNull', 'notNull'];
  return ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'between', 'isNull', 'notNull'];
}

const NO_VALUE: QueryOp[] = ['isNull', 'notNull'];

/** The tree as the API takes it; conditions left incomplete are dropped. */
export function toWhere(g: EditGroup): QueryGroup | undefined {
  const items: QueryNode[] = [];
  for (const n of g.items) {
    if (isGroup(n)) {
      const sub = toWhere(n);
      if (sub) items.push(sub);
      continue;
    }
    if (!n.field || !n.op) continue;
    if (NO_VALUE.includes(n.op)) items.push({ field: n.field, op: n.op });
    else if (n.value !== undefined && n.value !== null && n.value !== '' && !(Array.isArray(n.value) && n.value.every((v) => v === null || v === ''))) items.push({ field: n.field, op: n.op, value: n.value });
  }
  if (!items.length) return undefined;
  return g.kind === 'and' ? { and: items } : { or: items };
}

/** A saved where tree back into the editor. */
export function fromWhere(w: QueryGroup | undefined): EditGroup {
  if (!w) return newGroup();
  const kind = 'and' in w ? 'and' : 'or';
  const list = 'and' in w ? w.and : w.or;
  return {
    key: nextKey++,
    kind,
    items: list.map((n) => ('and' in n || 'or' in n ? fromWhere(n as QueryGroup) : { key: nextKey++, ...(n as { field: string; op: QueryOp; value?: unknown }) })),
  };
}

function DictValue({ code, multiple, value, onChange, enumValues }: { code: string | null; multiple: boolean; value: unknown; onChange: (v: unknown) => void; enumValues: string[] | null }) {
  const dict = useDict(code ?? undefined);
  const options = code ? dict.options : (enumValues ?? []).map((v) => ({ value: v, label: v }));
  return (
    <Select
      aria-label="条件值"
      style={{ minWidth: 180 }}
      mode={multiple ? 'multiple' : undefined}
      options={options}
      value={value as string}
      onChange={onChange}
      placeholder="请选择"
      showSearch={{ optionFilterProp: 'label' }}
      allowClear
    />
  );
}

function ValueInput({ f, op, value, onChange }: { f: PathField; op: QueryOp; value: unknown; onChange: (v: unknown) => void }) {
  if (NO_VALUE.includes(op)) return null;
  if (op === 'subtree') return <OrgTreeSelect value={value as number | undefined} onChange={onChange} width={260} />;
  if (f.dict || f.enum) return <DictValue code={f.dict} enumValues={f.enum} multiple={op === 'in' || op === 'notIn'} value={value} onChange={onChange} />;
  const one = (v: unknown, set: (x: unknown) => void, label = '条件值') => {
    if (f.kind === 'integer' || f.kind === 'number') return <InputNumber aria-label={label} value={v as number} onChange={(x) => set(x ?? undefined)} style={{ width: 140 }} />;
    if (f.kind === 'date') return <Input aria-label={label} type="date" value={(v as string) ?? ''} onChange={(e) => set(e.target.value || undefined)} style={{ width: 160 }} />;
    if (f.kind === 'boolean') return <Select aria-label={label} style={{ width: 100 }} value={v as boolean} onChange={set} options={[{ value: true, label: '是' }, { value: false, label: '否' }]} />;
    return <Input aria-label={label} value={(v as string) ?? ''} onChange={(e) => set(e.target.value)} style={{ width: 180 }} placeholder="请输入" />;
  };
  if (op === 'between') {
    const [a, b] = Array.isArray(value) ? value : [null, null];
    return (
      <Space size={4}>
        {one(a, (x) => onChange([x ?? null, b ?? null]), '起')}
        <span>至</span>
        {one(b, (x) => onChange([a ?? null, x ?? null]), '止')}
      </Space>
    );
  }
  return one(value, onChange);
}

interface Props {
  group: EditGroup;
  fields: PathField[];
  onChange: (g: EditGroup) => void;
  onRemove?: () => void;
  depth?: number;
}

export function ConditionGroup({ group, fields, onChange, onRemove, depth = 0 }: Props) {
  const byPath = new Map(fields.map((f) => [f.path, f]));
  const setItem = (i: number, item: EditCondition | EditGroup) => onChange({ ...group, items: group.items.map((x, j) => (j === i ? item : x)) });
  const removeItem = (i: number) => onChange({ ...group, items: group.items.filter((_, j) => j !== i) });
  const fieldOptions = [
    { label: '本模块字段', options: fields.filter((f) => !f.path.includes('.')).map((f) => ({ value: f.path, label: f.label })) },
    { label: '关联记录的字段', options: fields.filter((f) => f.path.includes('.')).map((f) => ({ value: f.path, label: f.label })) },
  ];
  return (
    <div className={`query-group query-group-${depth % 2}`} data-testid="query-group">
      <Space style={{ marginBottom: 8 }} wrap>
        <Radio.Group
          size="small"
          optionType="button"
          value={group.kind}
          onChange={(e) => onChange({ ...group, kind: e.target.value as 'and' | 'or' })}
          options={[{ value: 'and', label: '并且（全部满足）' }, { value: 'or', label: '或者（满足其一）' }]}
        />
        <Button size="small" icon={<PlusOutlined />} onClick={() => onChange({ ...group, items: [...group.items, newCondition()] })}>
          添加条件
        </Button>
        {depth < 3 && (
          <Button size="small" icon={<PlusOutlined />} onClick={() => onChange({ ...group, items: [...group.items, newGroup(group.kind === 'and' ? 'or' : 'and')] })}>
            添加条件组
          </Button>
        )}
        {onRemove && (
          <Button size="small" danger icon={<DeleteOutlined />} onClick={onRemove}>
            删除此组
          </Button>
        )}
      </Space>
      {group.items.map((item, i) =>
        isGroup(item) ? (
          <ConditionGroup key={item.key} group={item} fields={fields} depth={depth + 1} onChange={(g) => setItem(i, g)} onRemove={() => removeItem(i)} />
        ) : (
          <Space key={item.key} wrap style={{ display: 'flex', marginBottom: 6 }} data-testid="query-condition">
            <Select
              aria-label="条件字段"
              style={{ width: 240 }}
              placeholder="选择字段"
              options={fieldOptions}
              value={item.field}
              showSearch={{ optionFilterProp: 'label' }}
              onChange={(field: string) => setItem(i, { key: item.key, field, op: opsFor(byPath.get(field))[0] })}
            />
            <Select
              aria-label="条件运算"
              style={{ width: 150 }}
              value={item.op}
              disabled={!item.field}
              options={opsFor(byPath.get(item.field ?? '')).map((op) => ({ value: op, label: QUERY_OP_LABELS[op] }))}
              onChange={(op: QueryOp) => setItem(i, { ...item, op, value: undefined })}
            />
            {item.field && item.op && byPath.get(item.field) && <ValueInput f={byPath.get(item.field)!} op={item.op} value={item.value} onChange={(value) => setItem(i, { ...item, value })} />}
            <Button size="small" type="text" danger aria-label="删除条件" icon={<DeleteOutlined />} onClick={() => removeItem(i)} />
          </Space>
        ),
      )}
    </div>
  );
}
