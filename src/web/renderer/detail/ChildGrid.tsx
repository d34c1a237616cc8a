/**
 * The children of a record entered as one grid (x-children `grid`): one row per child, the grid's fields as
 * cells, a per-row total bounded by a field of the parent (`sum.max`), a totals row (numbers summed, choices
 * counted), and one 保存 for every changed row (`PUT /api/m/{child}/batch`: all rows or none). The server's
 * checks decide; a refusal names its row, which is marked, and nothing is lost from the grid.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Checkbox, Input, InputNumber, Select, Space, Table, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { AxiosError } from 'axios';
import { useMemo, useState } from 'react';
import type { ChildLink, FieldSchema, ModuleSchema } from '../../../shared/module-schema/types';
import { useDict } from '../../core/dicts';
import { errorText } from '../../core/request/request';
import { IN_PLACE, moduleApi, moduleKeys, type ModuleRecord } from '../api';
import { displayText, listColumns } from '../model';

/** Rows a grid shows at once: a branch's members, a class's learners. */
const GRID_MAX = 1000;

type Edits = Record<number, Record<string, unknown>>;

interface Refusal {
  row?: number;
  message: string;
}

export interface GridProps {
  link: ChildLink & { grid: NonNullable<ChildLink['grid']> };
  schema: ModuleSchema;
  parent: ModuleRecord;
  parentSchema: ModuleSchema;
  canEdit: boolean;
  /** Why the grid is read-only although the caller may edit (the parent is closed). */
  closed?: string;
}

const numeric = (f: FieldSchema) => f.type === 'integer' || f.type === 'number';
const asNumber = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

export function ChildGrid({ link, schema, parent, parentSchema, canEdit, closed }: GridProps) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [edits, setEdits] = useState<Edits>({});
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [saving, setSaving] = useState(false);
  const filter = useMemo(() => ({ [link.foreignKey]: parent.id }), [link.foreignKey, parent.id]);
  const list = useQuery({
    queryKey: [...moduleKeys.list(link.module), filter, 'grid'],
    queryFn: () => moduleApi.list(link.module, filter, { page: 0, size: GRID_MAX }, { ...IN_PLACE, skipErrorNotify: true }),
  });
  const rows = useMemo(() => list.data?.content ?? [], [list.data]);
  const { fields, sum } = link.grid;
  const valueOf = (r: ModuleRecord, name: string) => (name in (edits[r.id] ?? {}) ? edits[r.id][name] : r[name]);
  const rowSum = (r: ModuleRecord) => (sum ? sum.fields.reduce((t, n) => t + asNumber(valueOf(r, n)), 0) : 0);
  const max = sum?.max !== undefined && typeof parent[sum.max] === 'number' ? (parent[sum.max] as number) : undefined;
  const maxTitle = sum?.max ? parentSchema.properties[sum.max]?.title : undefined;
  const changed = Object.keys(edits).length;

  const setCell = (r: ModuleRecord, name: string, value: unknown) => {
    setEdits((all) => {
      const row = { ...(all[r.id] ?? {}), [name]: value };
      // Back to the stored value: the cell is no longer a change.
      if (value === r[name] || (value == null && r[name] == null)) delete row[name];
      const next = { ...all, [r.id]: row };
      if (!Object.keys(row).length) delete next[r.id];
      return next;
    });
  };

  const save = async () => {
    const changedRows = rows.filter((r) => edits[r.id]);
    if (!changedRows.length || saving) return;
    setSaving(true);
    setRefusal(null);
    try {
      const body = changedRows.map((r) => ({ id: r.id, version: r.version, ...edits[r.id] }));
      await moduleApi.updateMany(link.module, body);
      message.success(`已保存${changedRows.length}条`);
      setEdits({});
      await queryClient.invalidateQueries({ queryKey: moduleKeys.all(link.module) });
    } catch (error) {
      const e = error as AxiosError<{ message?: string; id?: number }>;
      const id = e.response?.data?.id;
      const at = rows.findIndex((r) => r.id === id);
      setRefusal({ row: at >= 0 ? at : undefined, message: e.response?.data?.message ?? errorText(e) });
    } finally {
      setSaving(false);
    }
  };

  const shown = listColumns(schema).filter((c) => c.field !== link.foreignKey && !fields.includes(c.field));
  const columns: ColumnsType<ModuleRecord> = [
    ...shown.map((c) => ({
      key: c.field,
      title: c.title,
      width: c.width,
      ellipsis: true,
      fixed: 'left' as const,
      render: (_: unknown, r: ModuleRecord) => displayText(r, c.field, c.schema),
    })),
    ...fields.map((name) => {
      const f = schema.properties[name];
      return {
        key: name,
        title: f.title,
        width: numeric(f) ? 96 : 130,
        render: (_: unknown, r: ModuleRecord) => (
          <span data-cell={name}>
            {canEdit ? <GridCell field={f} value={valueOf(r, name)} changed={name in (edits[r.id] ?? {})} onChange={(v) => setCell(r, name, v)} /> : displayText(r, name, f)}
          </span>
        ),
      };
    }),
    ...(sum
      ? [
          {
            key: '__sum',
            title: sum.title,
            width: 96,
            render: (_: unknown, r: ModuleRecord) => {
              const total = rowSum(r);
              const over = max !== undefined && total > max;
              return over ? (
                <Tooltip title={`${sum.title}${total}超过${maxTitle ?? ''}${max}`}>
                  <Typography.Text type="danger" strong data-over="true">
                    {total}
                  </Typography.Text>
                </Tooltip>
              ) : (
                total
              );
            },
          },
        ]
      : []),
  ];

  const overRows = max === undefined ? [] : rows.filter((r) => rowSum(r) > max);
  return (
    <div className="rf-child rf-grid">
      <div className="rf-child-bar">
        <span className="rf-child-title">{link.title ?? schema.title}</span>
        {closed && <Typography.Text type="secondary" className="rf-grid-closed">{closed}</Typography.Text>}
        {canEdit && (
          <Space>
            {changed > 0 && <Typography.Text type="secondary">{`已修改${changed}行`}</Typography.Text>}
            <Button size="small" disabled={!changed || saving} onClick={() => { setEdits({}); setRefusal(null); }}>
              撤销修改
            </Button>
            <Button type="primary" size="small" loading={saving} disabled={!changed} onClick={() => void save()}>
              保存
            </Button>
          </Space>
        )}
      </div>
      {max !== undefined && sum && (
        <Typography.Paragraph type={overRows.length ? 'danger' : 'secondary'} className="rf-grid-check">
          {overRows.length
            ? `${overRows.length}行的${sum.title}超过${maxTitle}${max}，请核对`
            : `每行的${sum.title}不超过${maxTitle}${max}`}
        </Typography.Paragraph>
      )}
      {refusal && <Alert type="error" showIcon className="rf-grid-refusal" title={refusal.message} />}
      <Table<ModuleRecord>
        size="small"
        rowKey="id"
        loading={list.isFetching}
        dataSource={rows}
        columns={columns}
        pagination={false}
        scroll={{ x: 'max-content', y: 480 }}
        rowClassName={(_, i) => (refusal?.row === i ? 'rf-grid-refused' : '')}
        locale={{ emptyText: list.isError ? '加载失败' : '暂无数据' }}
        summary={() =>
          rows.length ? (
            <Table.Summary fixed>
              <Table.Summary.Row className="rf-grid-totals">
                {shown.map((c, i) => (
                  <Table.Summary.Cell key={c.field} index={i}>
                    {i === 0 ? `合计（${rows.length}人）` : ''}
                  </Table.Summary.Cell>
                ))}
                {fields.map((name, i) => (
                  <Table.Summary.Cell key={name} index={shown.length + i}>
                    <ColumnTotal field={schema.properties[name]} values={rows.map((r) => valueOf(r, name))} />
                  </Table.Summary.Cell>
                ))}
                {sum && <Table.Summary.Cell index={shown.length + fields.length}>{rows.reduce((t, r) => t + rowSum(r), 0)}</Table.Summary.Cell>}
              </Table.Summary.Row>
            </Table.Summary>
          ) : null
        }
      />
    </div>
  );
}

/** One cell: a number, a choice of a dictionary or an enum, a yes/no, or a short text. */
function GridCell({ field, value, changed, onChange }: { field: FieldSchema; value: unknown; changed: boolean; onChange: (v: unknown) => void }) {
  const dict = useDict(field['x-dict']);
  const className = changed ? 'rf-grid-changed' : undefined;
  if (numeric(field)) {
    return (
      <InputNumber
        size="small"
        className={className}
        aria-label={field.title}
        min={field.minimum}
        max={field.maximum}
        precision={field.type === 'integer' ? 0 : undefined}
        value={typeof value === 'number' ? value : null}
        onChange={(v) => onChange(v ?? null)}
        style={{ width: 80 }}
      />
    );
  }
  if (field.type === 'boolean') return <Checkbox className={className} checked={value === true} onChange={(e) => onChange(e.target.checked)} />;
  const options = field['x-dict'] ? dict.options : field.enum?.map((v, i) => ({ value: String(v), label: field['x-enum-titles']?.[i] ?? String(v) }));
  if (options) {
    return (
      <Select
        size="small"
        className={className}
        aria-label={field.title}
        allowClear
        value={value == null || value === '' ? undefined : String(value)}
        options={options}
        onChange={(v) => onChange(v ?? null)}
        style={{ width: 112 }}
      />
    );
  }
  return <Input size="small" className={className} value={typeof value === 'string' ? value : ''} maxLength={field.maxLength} onChange={(e) => onChange(e.target.value || null)} />;
}

/** A column's total: the sum of its numbers, or how many rows chose each option ("优秀 3 · 合格 20"). */
function ColumnTotal({ field, values }: { field: FieldSchema; values: unknown[] }) {
  const dict = useDict(field['x-dict']);
  if (numeric(field)) return <>{values.reduce<number>((t, v) => t + asNumber(v), 0)}</>;
  const counts = new Map<string, number>();
  for (const v of values) if (v != null && v !== '') counts.set(String(v), (counts.get(String(v)) ?? 0) + 1);
  if (!counts.size) return null;
  const label = (v: string) => (field['x-dict'] ? dict.labelOf(v) : (field['x-enum-titles']?.[field.enum?.indexOf(v as never) ?? -1] ?? v));
  return (
    <span className="rf-grid-counts">
      {[...counts].map(([v, n]) => `${label(v)} ${n}`).join(' · ')}
    </span>
  );
}
