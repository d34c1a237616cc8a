import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Drawer, Form, Input, InputNumber, Modal, Switch, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { DatePicker } from '../../../core/date-pickers/date-pickers';
import { useHasPermission } from '../../../core/Permission';
import { get, put } from '../../../core/request/request';

/** One row of GET /api/rule-params (src/server/runtime/params/registry.ts, describe). */
interface RuleParamRow {
  key: string;
  title: string;
  value: unknown;
  default: unknown;
  min: number | null;
  max: number | null;
  source: 'default' | 'override' | 'admin';
  area: string;
  type: string;
  unit: string;
  article: string;
  editable: boolean | 'raise';
  range: string;
  pending?: { value: unknown; effectiveFrom: string };
}

interface Change {
  id: number;
  oldValue: unknown;
  newValue: unknown;
  reason: string;
  changedByName: string;
  changedAt: string;
  effectiveFrom: string;
}

const SOURCES = { default: { text: '默认值', color: 'default' }, override: { text: '学校配置文件', color: 'blue' }, admin: { text: '管理员设置', color: 'green' } } as const;

const show = (v: unknown, unit = '') => (typeof v === 'boolean' ? (v ? '是' : '否') : v === null || v === undefined ? '—' : typeof v === 'object' ? JSON.stringify(v) : `${String(v)}${unit}`);

interface EditForm {
  value: unknown;
  reason: string;
  effectiveFrom?: dayjs.Dayjs;
}

/** 规则参数 (issue 42): every module's rule parameters by area, with an edit dialog and each one's history. */
export default function RuleParamsPage() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const canEdit = useHasPermission(['rule-param:edit']);
  const params = useQuery({ queryKey: ['rule-params'], queryFn: () => get<RuleParamRow[]>('/api/rule-params') });
  const [editing, setEditing] = useState<RuleParamRow>();
  const [historyOf, setHistoryOf] = useState<RuleParamRow>();
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<EditForm>();
  const history = useQuery({ queryKey: ['rule-params', 'history', historyOf?.key], enabled: !!historyOf, queryFn: () => get<Change[]>(`/api/rule-params/${historyOf!.key}/history`) });

  const groups = useMemo(() => {
    const byArea = new Map<string, RuleParamRow[]>();
    for (const p of params.data ?? []) byArea.set(p.area, [...(byArea.get(p.area) ?? []), p]);
    return [...byArea.entries()];
  }, [params.data]);

  const open = (p: RuleParamRow) => {
    setEditing(p);
    form.setFieldsValue({ value: p.value, reason: '', effectiveFrom: dayjs() });
  };
  const save = async () => {
    const v = await form.validateFields();
    setSaving(true);
    try {
      await put(`/api/rule-params/${editing!.key}`, { value: editing!.type === 'json' ? JSON.parse(String(v.value)) : v.value, reason: v.reason, effectiveFrom: v.effectiveFrom?.format('YYYY-MM-DD') });
      message.success('规则参数已保存');
      setEditing(undefined);
      void queryClient.invalidateQueries({ queryKey: ['rule-params'] });
    } catch {
      // The request layer shows the server's message (the range it names).
    } finally {
      setSaving(false);
    }
  };

  const columns: ColumnsType<RuleParamRow> = [
    { title: '参数', dataIndex: 'title', width: 200, render: (t: string, p) => <span title={p.key}>{t}</span> },
    { title: '当前值', dataIndex: 'value', width: 120, render: (v, p) => <b>{show(v, p.unit)}</b> },
    { title: '默认值', dataIndex: 'default', width: 110, render: (v, p) => show(v, p.unit) },
    { title: '允许范围', dataIndex: 'range', width: 150, render: (r: string, p) => (p.editable === false ? <Tag>不可修改</Tag> : r || '—') },
    { title: '来源', dataIndex: 'source', width: 120, render: (s: RuleParamRow['source'], p) => (
      <>
        <Tag color={SOURCES[s].color}>{SOURCES[s].text}</Tag>
        {p.pending && <Tag color="orange">{p.pending.effectiveFrom}起为{show(p.pending.value, p.unit)}</Tag>}
      </>
    ) },
    { title: '依据', dataIndex: 'article', render: (a: string) => <Typography.Text type="secondary">{a || '—'}</Typography.Text> },
    {
      title: '操作', key: 'op', width: 140, render: (_, p) => (
        <>
          {canEdit && p.editable !== false && p.type !== 'json' && <Button type="link" size="small" onClick={() => open(p)} data-testid={`rule-param-edit-${p.key}`}>修改</Button>}
          <Button type="link" size="small" onClick={() => setHistoryOf(p)}>历史</Button>
        </>
      ),
    },
  ];

  const valueInput = (p: RuleParamRow) => {
    if (p.type === 'boolean') return <Switch checkedChildren="是" unCheckedChildren="否" />;
    if (p.type === 'integer' || p.type === 'number') {
      return <InputNumber aria-label="参数值" min={p.min ?? undefined} max={p.max ?? undefined} precision={p.type === 'integer' ? 0 : undefined} addonAfter={p.unit || undefined} style={{ width: 200 }} />;
    }
    return <Input aria-label="参数值" />;
  };

  return (
    <div className="system-page">
      <Typography.Paragraph type="secondary">
        各业务按党内法规设定的数值。修改须填写原因，可选择生效日期；历史记录保留每次修改，已办结的业务按当时有效的值解释。
      </Typography.Paragraph>
      {groups.map(([area, rows]) => (
        <section key={area} style={{ marginBottom: 24 }}>
          <Typography.Title level={5}>{area}</Typography.Title>
          <Table<RuleParamRow> rowKey="key" size="small" pagination={false} columns={columns} dataSource={rows} />
        </section>
      ))}
      {params.isLoading && <Table loading columns={columns} dataSource={[]} />}
      <Modal title={editing ? `修改规则参数：${editing.area}·${editing.title}` : ''} open={!!editing} onCancel={() => setEditing(undefined)} onOk={() => void save()} confirmLoading={saving} okText="保存" destroyOnHidden>
        {editing && (
          <Form form={form} layout="vertical">
            <Typography.Paragraph type="secondary">
              默认值 {show(editing.default, editing.unit)}{editing.range ? `；允许范围 ${editing.range}` : ''}{editing.article ? `；依据 ${editing.article}` : ''}
            </Typography.Paragraph>
            <Form.Item label="参数值" name="value" valuePropName={editing.type === 'boolean' ? 'checked' : 'value'} rules={[{ required: editing.type !== 'boolean', message: '请输入参数值' }]}>
              {valueInput(editing)}
            </Form.Item>
            <Form.Item label="修改原因" name="reason" rules={[{ required: true, whitespace: true, message: '请填写修改原因' }, { max: 500, message: '修改原因不能超过500个字' }]}>
              <Input.TextArea aria-label="修改原因" rows={3} />
            </Form.Item>
            <Form.Item label="生效日期" name="effectiveFrom" extra="默认今天生效；可选择以后的日期">
              <DatePicker aria-label="生效日期" disabledDate={(d) => d.isBefore(dayjs(), 'day')} />
            </Form.Item>
          </Form>
        )}
      </Modal>
      <Drawer title={historyOf ? `修改历史：${historyOf.area}·${historyOf.title}` : ''} open={!!historyOf} onClose={() => setHistoryOf(undefined)} size="large">
        <Table<Change>
          rowKey="id"
          size="small"
          loading={history.isLoading}
          pagination={false}
          dataSource={history.data ?? []}
          locale={{ emptyText: '尚未修改过' }}
          columns={[
            { title: '原值', dataIndex: 'oldValue', render: (v) => show(v, historyOf?.unit) },
            { title: '新值', dataIndex: 'newValue', render: (v) => show(v, historyOf?.unit) },
            { title: '生效日期', dataIndex: 'effectiveFrom' },
            { title: '原因', dataIndex: 'reason' },
            { title: '修改人', dataIndex: 'changedByName' },
            { title: '修改时间', dataIndex: 'changedAt', render: (t: string) => dayjs(t).format('YYYY-MM-DD HH:mm') },
          ]}
        />
      </Drawer>
    </div>
  );
}
