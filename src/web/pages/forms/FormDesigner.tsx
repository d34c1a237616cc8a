/**
 * The designer: fields of the runtime's kinds (text, number, date, dictionary, organisation, person,
 * file, a table of rows, computed), required, ranges and help text, with a live preview rendered by the
 * runtime's own form (RecordForm) as the filler will see it. Saving stores a version (POST/PUT /api/forms).
 */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Checkbox, Col, Divider, Input, InputNumber, Row, Select, Space, Typography } from 'antd';
import type { AxiosError } from 'axios';
import { useMemo, useState } from 'react';
import type { ModuleSchema } from '../../../shared/module-schema/types';
import { errorText } from '../../core/request/request';
import { RecordForm } from '../../renderer/form/RecordForm';
import { formsApi } from './api';
import { FIELD_KINDS, designProblems, designedSchema, nextName, type DesignColumn, type DesignField } from './designer';

const COMPUTED_FNS = [
  { value: 'age', label: '年龄（出生日期）' },
  { value: 'partyAge', label: '党龄（入党日期）' },
  { value: 'addDays', label: '日期加天数' },
];

function ColumnsEditor({ columns, onChange }: { columns: DesignColumn[]; onChange: (c: DesignColumn[]) => void }) {
  const set = (i: number, patch: Partial<DesignColumn>) => onChange(columns.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  return (
    <div className="forms-columns">
      {columns.map((c, i) => (
        <Space key={c.name} wrap>
          <Input aria-label="列名称" placeholder="列名称" value={c.title} onChange={(e) => set(i, { title: e.target.value })} style={{ width: 140 }} />
          <Select aria-label="列类型" value={c.type} style={{ width: 90 }} onChange={(type) => set(i, { type })}
            options={[{ value: 'string', label: '文本' }, { value: 'number', label: '数字' }, { value: 'date', label: '日期' }]} />
          <Checkbox checked={!!c.required} onChange={(e) => set(i, { required: e.target.checked })}>必填</Checkbox>
          <Button type="text" danger icon={<DeleteOutlined />} aria-label="删除列" onClick={() => onChange(columns.filter((_, j) => j !== i))} />
        </Space>
      ))}
      <Button size="small" icon={<PlusOutlined />} onClick={() => onChange([...columns, { name: nextName('c', columns.map((c) => c.name)), title: `列${columns.length + 1}`, type: 'string' }])}>添加列</Button>
    </div>
  );
}

/** The dictionaries by their Chinese names, searchable; the code is what the schema stores. */
function DictPicker({ value, onChange, invalid }: { value?: string; onChange: (code: string) => void; invalid: boolean }) {
  const dicts = useQuery({ queryKey: ['dict-names'], queryFn: formsApi.dictionaries, staleTime: 5 * 60_000 });
  return (
    <Select aria-label="字典" placeholder="选择字典" showSearch optionFilterProp="label" value={value || undefined} status={invalid ? 'error' : undefined} loading={dicts.isLoading}
      style={{ width: 200 }} onChange={onChange} options={(dicts.data ?? []).map((d) => ({ value: d.code, label: d.name }))} />
  );
}

function FieldEditor({ field, others, problems, onChange, onRemove }: { field: DesignField; others: DesignField[]; problems?: string[]; onChange: (f: DesignField) => void; onRemove: () => void }) {
  const set = (patch: Partial<DesignField>) => onChange({ ...field, ...patch });
  return (
    <Card size="small" className="forms-field" title={<Input aria-label="字段名称" placeholder="字段名称" value={field.title} onChange={(e) => set({ title: e.target.value })} variant="borderless" status={problems?.includes('请填写字段名称') ? 'error' : undefined} />}
      extra={<Button type="text" danger icon={<DeleteOutlined />} aria-label={`删除字段${field.title}`} onClick={onRemove} />}>
      <Space wrap>
        <Select aria-label="字段类型" value={field.kind} options={FIELD_KINDS} style={{ width: 140 }} onChange={(kind) => set({ kind, ...(kind === 'rows' && !field.columns && { columns: [{ name: 'c1', title: '列1', type: 'string' }] }) })} />
        {field.kind !== 'computed' && <Checkbox checked={!!field.required} onChange={(e) => set({ required: e.target.checked })}>必填</Checkbox>}
        {field.kind === 'number' && (
          <>
            <InputNumber aria-label="最小值" placeholder="最小值" value={field.min} onChange={(v) => set({ min: v ?? undefined })} />
            <InputNumber aria-label="最大值" placeholder="最大值" value={field.max} onChange={(v) => set({ max: v ?? undefined })} />
          </>
        )}
        {(field.kind === 'text' || field.kind === 'textarea') && <InputNumber aria-label="最多字数" placeholder="最多字数" min={1} value={field.maxLength} onChange={(v) => set({ maxLength: v ?? undefined })} />}
        {field.kind === 'dict' && <DictPicker value={field.dict} onChange={(dict) => set({ dict })} invalid={!!problems?.includes('请选择字典')} />}
        {field.kind === 'computed' && (
          <>
            <Select aria-label="计算方式" placeholder="计算方式" value={field.fn} options={COMPUTED_FNS} style={{ width: 160 }} onChange={(fn) => set({ fn })} />
            <Select aria-label="参与计算的字段" mode="multiple" placeholder="参与计算的字段" value={field.args} style={{ minWidth: 180 }} onChange={(args) => set({ args })}
              options={others.filter((o) => o.kind !== 'computed' && o.kind !== 'rows').map((o) => ({ value: o.name, label: o.title }))} />
          </>
        )}
      </Space>
      <Input aria-label="填写说明" placeholder="填写说明（显示在字段下方）" value={field.description} onChange={(e) => set({ description: e.target.value || undefined })} style={{ marginTop: 8 }} />
      {field.kind === 'rows' && <ColumnsEditor columns={field.columns ?? []} onChange={(columns) => set({ columns })} />}
      {problems?.map((p) => <Typography.Text key={p} type="danger" className="forms-field-problem" style={{ display: 'block', marginTop: 4 }}>{p}</Typography.Text>)}
    </Card>
  );
}

/** A field the preview can draw: a dictionary with its code, a computation with its function and fields. */
const complete = (f: DesignField) => (f.kind !== 'dict' || !!f.dict) && (f.kind !== 'computed' || (!!f.fn && !!f.args?.length));

export function FormDesigner({ formId, initialTitle, initialFields, onSaved }: { formId?: string; initialTitle?: string; initialFields?: DesignField[]; onSaved: (id: string) => void }) {
  const { message } = App.useApp();
  const [title, setTitle] = useState(initialTitle ?? '');
  const [fields, setFields] = useState<DesignField[]>(initialFields ?? [{ name: 'f1', title: '填报人', kind: 'text', required: true }]);
  const [problems, setProblems] = useState<string[]>([]);
  // Shown once the user tried to save, then kept up to date as the fields change.
  const [checked, setChecked] = useState(false);
  const fieldProblems = useMemo(() => (checked ? designProblems(fields) : {}), [checked, fields]);
  const [saving, setSaving] = useState(false);
  const schema = useMemo(() => designedSchema(title || '未命名表单', fields), [title, fields]);
  // The preview remounts when the design changes (the form keeps its own values while it stays the same).
  const preview = useMemo(() => designedSchema(title || '未命名表单', fields.filter(complete)), [title, fields]);
  const previewKey = useMemo(() => JSON.stringify(preview), [preview]);
  const add = () => setFields([...fields, { name: nextName('f', fields.map((f) => f.name)), title: `字段${fields.length + 1}`, kind: 'text' }]);
  const save = async () => {
    if (!title.trim()) return void message.error('请填写表单名称');
    setChecked(true);
    if (!fields.length) return void message.error('请至少添加一个字段');
    if (Object.keys(designProblems(fields)).length) return void message.error('有字段尚未填写完整，请按字段下方的提示修改');
    setSaving(true);
    setProblems([]);
    try {
      const saved = formId ? await formsApi.change(formId, title.trim(), schema) : await formsApi.create(title.trim(), schema);
      message.success(`已保存（第 ${saved.version} 版）`);
      onSaved(saved.id);
    } catch (error) {
      const body = (error as AxiosError<{ errors?: { message: string }[] }>).response?.data;
      setProblems(body?.errors?.map((e) => e.message) ?? [errorText(error as AxiosError<{ message?: string }>)]);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Row gutter={16} className="forms-designer">
      <Col xs={24} lg={12}>
        <Input aria-label="表单名称" placeholder="表单名称" value={title} onChange={(e) => setTitle(e.target.value)} size="large" maxLength={100} />
        <Divider plain>字段</Divider>
        <Space direction="vertical" style={{ width: '100%' }}>
          {fields.map((f, i) => (
            <FieldEditor key={f.name} field={f} problems={fieldProblems[f.name]} others={fields.filter((o) => o !== f)} onChange={(next) => setFields(fields.map((x, j) => (j === i ? next : x)))} onRemove={() => setFields(fields.filter((_, j) => j !== i))} />
          ))}
          <Button block icon={<PlusOutlined />} onClick={add}>添加字段</Button>
        </Space>
        {problems.length > 0 && <Alert type="error" showIcon style={{ marginTop: 12 }} message="表单定义未通过检查" description={<ul>{problems.map((p) => <li key={p}>{p}</li>)}</ul>} />}
        <Button type="primary" style={{ marginTop: 12 }} loading={saving} onClick={save}>保存表单</Button>
      </Col>
      <Col xs={24} lg={12}>
        <Card size="small" title="预览（填报人看到的表单）" className="forms-preview">
          <RecordForm key={previewKey} schema={preview as ModuleSchema} />
        </Card>
      </Col>
    </Row>
  );
}
