/**
 * The report designer of 统计报表: a data source, rows and columns as dimensions (dictionary fields,
 * organisation levels with subtotals, age or party-age bands, years, months), measures (counts and sums,
 * each with conditions in 综合查询's condition editor), the chart, hidden empty rows and sharing. The
 * definition is the built-in reports' shape (shared/statistics.ts ReportSpec); the server checks it
 * against the source before a preview or a save (docs/statistics.md).
 */
import { DeleteOutlined, EyeOutlined, PlusOutlined, SaveOutlined } from '@ant-design/icons';
import { useMutation, useQuery } from '@tanstack/react-query';
import { App, Button, Card, Checkbox, Drawer, Input, Radio, Select, Space, Table, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import {
  BAND_PRESETS, DIMENSION_KINDS, MAX_REPORT_MEASURES, REPORT_CHARTS, type BandPreset, type ReportChart, type ReportDimension, type ReportResult, type ReportRow, type ReportSpec, type ReportSummary,
} from '../../../shared/statistics';
import { ConditionGroup, fromWhere, newGroup, pathFields, toWhere, type EditGroup } from './ConditionEditor';
import { statApi, type QueryField } from './api';
import './statistics.css';

type Kind = ReportDimension['kind'];

interface EditDimension {
  kind: Kind;
  field?: string;
  depth: number;
  subtotals: boolean;
  bands: BandPreset;
}

interface EditMeasure {
  key: number;
  title: string;
  agg: 'count' | 'sum';
  field?: string;
  cents?: boolean;
  where: EditGroup;
}

/** Whether a field can classify by a dimension kind (the server checks the same). */
function fits(kind: Kind, f: QueryField): boolean {
  switch (kind) {
    case 'dict':
      return !!(f.dict || f.enum) && !f.ref;
    case 'band':
      return f.kind === 'date';
    case 'org':
      return f.ref === 'org' && f.kind === 'integer';
    case 'year':
    case 'month':
      return f.kind === 'date' || f.kind === 'date-time';
  }
}

let nextKey = 1;
const newMeasure = (): EditMeasure => ({ key: nextKey++, title: '人数', agg: 'count', where: newGroup() });

const toEditDimension = (d: ReportDimension | undefined): EditDimension | undefined =>
  d && {
    kind: d.kind,
    field: d.field,
    depth: d.kind === 'org' ? d.depth : 1,
    subtotals: d.kind === 'org' && !!d.subtotals,
    bands: d.kind === 'band' && typeof d.bands === 'string' ? d.bands : 'age',
  };

function toDimension(d: EditDimension, original?: ReportDimension): ReportDimension {
  const field = d.field ?? '';
  // The original's title (a built-in's 党龄段) stays while kind and field do.
  const same = original?.kind === d.kind && original.field === field ? original : undefined;
  const title = same?.title ? { title: same.title } : {};
  switch (d.kind) {
    case 'org':
      return { kind: 'org', field, ...title, depth: d.depth, ...(d.subtotals && d.depth > 1 ? { subtotals: true } : {}) };
    case 'band':
      // A built-in's own band limits are kept when the field is unchanged.
      return same?.kind === 'band' && typeof same.bands !== 'string' ? same : { kind: 'band', field, ...title, bands: d.bands };
    default:
      return { kind: d.kind, field, ...title };
  }
}

function DimensionEditor({ label, value, fields, onChange }: { label: '行' | '列'; value: EditDimension; fields: QueryField[]; onChange: (d: EditDimension) => void }) {
  const kinds = (Object.keys(DIMENSION_KINDS) as Kind[]).filter((k) => fields.some((f) => fits(k, f)));
  const choices = fields.filter((f) => fits(value.kind, f));
  return (
    <Space wrap>
      <Select
        aria-label={`${label}分类方式`}
        style={{ width: 130 }}
        value={value.kind}
        options={kinds.map((k) => ({ value: k, label: DIMENSION_KINDS[k] }))}
        onChange={(kind: Kind) => onChange({ ...value, kind, field: fields.find((f) => fits(kind, f))?.name })}
      />
      <Select aria-label={`${label}字段`} style={{ width: 180 }} placeholder="选择字段" value={value.field} options={choices.map((f) => ({ value: f.name, label: f.title }))} onChange={(field: string) => onChange({ ...value, field })} />
      {value.kind === 'org' && (
        <>
          <Radio.Group
            aria-label={`${label}组织层级`}
            optionType="button"
            size="small"
            value={value.depth}
            onChange={(e) => onChange({ ...value, depth: e.target.value as number })}
            options={[{ value: 1, label: '二级党组织' }, { value: 2, label: '党支部' }]}
          />
          {value.depth > 1 && (
            <Checkbox checked={value.subtotals} onChange={(e) => onChange({ ...value, subtotals: e.target.checked })}>
              按二级党组织小计
            </Checkbox>
          )}
        </>
      )}
      {value.kind === 'band' && (
        <Select
          aria-label={`${label}分段`}
          style={{ width: 120 }}
          value={value.bands}
          options={(Object.keys(BAND_PRESETS) as BandPreset[]).map((b) => ({ value: b, label: BAND_PRESETS[b] }))}
          onChange={(bands: BandPreset) => onChange({ ...value, bands })}
        />
      )}
    </Space>
  );
}

export interface DesignTarget {
  /** The designed report changed (its owner's); absent: a new one. */
  id?: string;
  definition?: ReportSpec;
  shared?: boolean;
}

export default function ReportDesigner({ target, onClose, onSaved }: { target: DesignTarget; onClose: () => void; onSaved: (r: ReportSummary) => void }) {
  const { message } = App.useApp();
  const sources = useQuery({ queryKey: ['stat-sources'], queryFn: statApi.sources });
  const modules = useQuery({ queryKey: ['query-modules'], queryFn: statApi.modules, staleTime: 5 * 60_000 });
  const initial = target.definition;
  const [title, setTitle] = useState(initial?.title ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [source, setSource] = useState(initial?.source ?? 'members');
  const [rows, setRows] = useState<EditDimension>(toEditDimension(initial?.rows) ?? { kind: 'org', field: 'orgId', depth: 1, subtotals: false, bands: 'age' });
  const [columns, setColumns] = useState<EditDimension | undefined>(toEditDimension(initial?.columns));
  const [measures, setMeasures] = useState<EditMeasure[]>(
    initial?.measures.map((m) => ({ key: nextKey++, title: m.title, agg: m.agg, field: m.field, cents: m.cents, where: fromWhere(m.where) })) ?? [newMeasure()],
  );
  const [scope, setScope] = useState<EditGroup>(fromWhere(initial?.where));
  const [chart, setChart] = useState<ReportChart>(initial?.chart ?? 'auto');
  const [hideEmpty, setHideEmpty] = useState(!!initial?.hideEmpty);
  const [shared, setShared] = useState(!!target.shared);
  const [preview, setPreview] = useState<ReportResult>();

  const usable = (sources.data ?? []).filter((s) => modules.data?.some((m) => m.id === s.module));
  const src = usable.find((s) => s.code === source);
  const module = modules.data?.find((m) => m.id === src?.module);
  const offered = useMemo(() => (module?.fields ?? []).filter((f) => f.stored && (!src?.fields.length || src.fields.includes(f.name))), [module, src]);
  // Conditions on the source's fields and, one reference away, on the records they refer to.
  const conditionFields = useMemo(
    () => pathFields(module, modules.data ?? []).filter((f) => f.stored && offered.some((o) => o.name === f.path.split('.')[0])),
    [module, modules.data, offered],
  );
  useEffect(() => {
    // A new report on a source without the default fields starts from its first fitting ones.
    if (!initial && offered.length && !offered.some((f) => f.name === rows.field)) {
      const kind = (['org', 'dict', 'band', 'year'] as Kind[]).find((k) => offered.some((f) => fits(k, f)))!;
      setRows({ ...rows, kind, field: offered.find((f) => fits(kind, f))?.name });
    }
  }, [offered, initial, rows]);

  const definition = (): ReportSpec => ({
    title: title.trim(),
    ...(description.trim() ? { description: description.trim() } : {}),
    source,
    rows: toDimension(rows, initial?.rows),
    ...(columns ? { columns: toDimension(columns, initial?.columns) } : {}),
    measures: measures.map((m, i) => {
      const where = toWhere(m.where);
      return { key: initial?.measures[i]?.key ?? `m${i + 1}`, title: m.title, agg: m.agg, ...(m.agg === 'sum' ? { field: m.field, ...(m.cents ? { cents: true } : {}) } : {}), ...(where ? { where } : {}) };
    }),
    ...(toWhere(scope) ? { where: toWhere(scope) } : {}),
    ...(hideEmpty ? { hideEmpty: true } : {}),
    chart,
  });

  const run = useMutation({ mutationFn: () => statApi.previewReport(definition(), {}), onSuccess: setPreview });
  const save = useMutation({
    mutationFn: (asNew: boolean) => statApi.saveReport({ definition: definition(), shared }, asNew ? undefined : target.id),
    onSuccess: (r) => {
      message.success('报表已保存');
      onSaved(r);
    },
  });
  const setMeasure = (i: number, m: EditMeasure) => setMeasures(measures.map((x, j) => (j === i ? m : x)));
  const numeric = offered.filter((f) => f.kind === 'integer' || f.kind === 'number');

  return (
    <Drawer
      title={target.id ? '修改报表' : '设计报表'}
      open
      size={1000}
      onClose={onClose}
      destroyOnHidden
      className="report-designer"
      extra={
        <Space>
          <Button icon={<EyeOutlined />} loading={run.isPending} onClick={() => run.mutate()}>
            预览
          </Button>
          {target.id && (
            <Button loading={save.isPending} disabled={!title.trim()} onClick={() => save.mutate(true)}>
              另存为新报表
            </Button>
          )}
          <Button type="primary" icon={<SaveOutlined />} loading={save.isPending} disabled={!title.trim()} onClick={() => save.mutate(false)}>
            保存报表
          </Button>
        </Space>
      }
    >
      <Space orientation="vertical" style={{ width: '100%' }} size={12}>
        <Space wrap>
          <Input aria-label="报表名称" placeholder="报表名称" maxLength={60} style={{ width: 320 }} value={title} onChange={(e) => setTitle(e.target.value)} />
          <Select
            aria-label="数据源"
            style={{ width: 180 }}
            value={source}
            options={usable.map((s) => ({ value: s.code, label: s.title }))}
            onChange={(code: string) => {
              setSource(code);
              setColumns(undefined);
              setMeasures([newMeasure()]);
              setScope(newGroup());
              setRows({ ...rows, field: undefined });
            }}
          />
        </Space>
        <Input.TextArea aria-label="报表说明" placeholder="报表说明（选填）" maxLength={200} autoSize value={description} onChange={(e) => setDescription(e.target.value)} />
        <Card size="small" title="行（分类）">
          <DimensionEditor label="行" value={rows} fields={offered} onChange={setRows} />
        </Card>
        <Card
          size="small"
          title="列（分类）"
          extra={
            <Checkbox checked={!!columns} onChange={(e) => setColumns(e.target.checked ? { kind: 'dict', field: offered.find((f) => fits('dict', f))?.name, depth: 1, subtotals: false, bands: 'age' } : undefined)}>
              按列分类
            </Checkbox>
          }
        >
          {columns ? <DimensionEditor label="列" value={columns} fields={offered} onChange={setColumns} /> : <Typography.Text type="secondary">不分列：每个指标一列</Typography.Text>}
        </Card>
        <Card
          size="small"
          title="统计指标"
          extra={
            <Button size="small" icon={<PlusOutlined />} disabled={measures.length >= MAX_REPORT_MEASURES} onClick={() => setMeasures([...measures, newMeasure()])}>
              添加指标
            </Button>
          }
        >
          {measures.map((m, i) => (
            <div key={m.key} className="report-measure" data-testid="report-measure">
              <Space wrap style={{ marginBottom: 6 }}>
                <Input aria-label="指标名称" style={{ width: 200 }} maxLength={30} value={m.title} onChange={(e) => setMeasure(i, { ...m, title: e.target.value })} />
                <Select aria-label="统计方式" style={{ width: 100 }} value={m.agg} options={[{ value: 'count', label: '计数' }, { value: 'sum', label: '求和' }]} onChange={(agg: 'count' | 'sum') => setMeasure(i, { ...m, agg, field: agg === 'sum' ? numeric[0]?.name : undefined })} />
                {m.agg === 'sum' && <Select aria-label="求和字段" style={{ width: 160 }} value={m.field} options={numeric.map((f) => ({ value: f.name, label: f.title }))} onChange={(field: string) => setMeasure(i, { ...m, field })} />}
                {measures.length > 1 && <Button size="small" type="text" danger aria-label="删除指标" icon={<DeleteOutlined />} onClick={() => setMeasures(measures.filter((_, j) => j !== i))} />}
              </Space>
              <Typography.Text type="secondary">指标条件（选填；日期可写 {'{year}'} 代表统计年度，如 {'{year}'}-01-01）</Typography.Text>
              <ConditionGroup group={m.where} fields={conditionFields} onChange={(where) => setMeasure(i, { ...m, where })} />
            </div>
          ))}
        </Card>
        <Card size="small" title="统计范围（选填，对所有指标生效）">
          <ConditionGroup group={scope} fields={conditionFields} onChange={setScope} />
        </Card>
        <Space wrap>
          <span>图表</span>
          <Select aria-label="图表类型" style={{ width: 110 }} value={chart} options={(Object.keys(REPORT_CHARTS) as ReportChart[]).map((c) => ({ value: c, label: REPORT_CHARTS[c] }))} onChange={setChart} />
          <Checkbox checked={hideEmpty} onChange={(e) => setHideEmpty(e.target.checked)}>
            隐藏全为0的行
          </Checkbox>
          <Checkbox checked={shared} onChange={(e) => setShared(e.target.checked)}>
            共享给其他用户（可使用该数据源的用户可见）
          </Checkbox>
        </Space>
        {preview && (
          <Card size="small" title="预览（实时数据）">
            <Table<ReportRow>
              className="report-preview"
              rowKey="key"
              size="small"
              pagination={false}
              scroll={{ x: 'max-content', y: 320 }}
              dataSource={preview.rows}
              columns={preview.columns.map((c, i) => (i === 0 ? { key: c.key, title: c.title, dataIndex: 'label' } : { key: c.key, title: c.title, align: 'right' as const, render: (_: unknown, r: ReportRow) => r.values[c.key] ?? 0 }))}
            />
          </Card>
        )}
      </Space>
    </Drawer>
  );
}
