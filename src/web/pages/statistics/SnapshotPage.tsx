/**
 * 数据快照: point-in-time copies of chosen modules (taken by hand here, as a background job), read-only;
 * reports can read them (统计报表's data source) and two snapshots compare record by record: added,
 * removed and changed, with the fields that changed.
 */
import { CameraOutlined, DeleteOutlined, DownloadOutlined, FieldTimeOutlined, SwapOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Checkbox, Input, Modal, Radio, Select, Space, Statistic, Table, Tabs, Tag } from 'antd';
import { useState } from 'react';
import { EXPORT_STATE_LABELS, type Snapshot, type SnapshotDiff } from '../../../shared/statistics';
import { Permission, useHasPermission } from '../../core/Permission';
import JobProgress from '../../core/jobs/JobProgress';
import { downloadOrJob, useJobParam } from '../../core/jobs/useJob';
import { statApi, type SnapshotSchedule } from './api';
import './statistics.css';
import { PAGE_BUTTONS } from '../../../shared/page-actions';

const MODULES = [
  { value: 'member', label: '党员信息' },
  { value: 'org', label: '党组织' },
  { value: 'development', label: '发展党员' },
  { value: 'unit', label: '单位' },
];
const moduleTitle = (id: string) => MODULES.find((m) => m.value === id)?.label ?? id;
const STATE_COLORS: Record<number, string> = { 1: 'processing', 2: 'success', 3: 'error' };
const EVERY = [
  { value: 'month-end', label: '每月末' },
  { value: 'year-end', label: '每年末（12月31日）' },
];
const show = (v: unknown) => (v === null || v === undefined || v === '' ? '（空）' : String(v));

function DiffView({ a, b, module }: { a: number; b: number; module: string }) {
  const [kind, setKind] = useState<SnapshotDiff['kind']>('changed');
  const [page, setPage] = useState(0);
  const diff = useQuery({ queryKey: ['snapshot-diff', a, b, module, kind, page], queryFn: () => statApi.diff(a, b, module, kind, page) });
  const d = diff.data;
  return (
    <div style={{ marginTop: 12 }}>
      <Space size={32} style={{ marginBottom: 12 }}>
        <Statistic title="新增记录" value={d?.added ?? '—'} />
        <Statistic title="减少记录" value={d?.removed ?? '—'} />
        <Statistic title="变化记录" value={d?.changed ?? '—'} />
      </Space>
      <Tabs
        activeKey={kind}
        onChange={(k) => (setKind(k as SnapshotDiff['kind']), setPage(0))}
        items={[
          { key: 'changed', label: '变化' },
          { key: 'added', label: '新增' },
          { key: 'removed', label: '减少' },
        ]}
      />
      <Table
        rowKey="id"
        size="small"
        loading={diff.isFetching}
        dataSource={d?.content}
        pagination={{ current: page + 1, pageSize: 10, total: d?.totalElements, showSizeChanger: false, onChange: (p) => setPage(p - 1) }}
        columns={[
          { title: '记录', dataIndex: 'name', width: 160 },
          { title: 'ID', dataIndex: 'id', width: 90 },
          ...(kind === 'changed'
            ? [{ title: '变化的字段', key: 'fields', render: (_: unknown, r: SnapshotDiff['content'][number]) => r.fields.map((f) => <div key={f.field}>{f.title}：{show(f.before)} → {show(f.after)}</div>) }]
            : []),
        ]}
      />
    </div>
  );
}

/** Snapshots taken on a schedule (the last day of each month or 31 December), checked hourly by the server. */
function Schedules() {
  const client = useQueryClient();
  const canAdd = useHasPermission([PAGE_BUTTONS.takeSnapshot.permission]);
  const schedules = useQuery({ queryKey: ['snapshot-schedules'], queryFn: statApi.schedules });
  const [adding, setAdding] = useState<{ title: string; modules: string[]; every: string }>();
  const refresh = () => void client.invalidateQueries({ queryKey: ['snapshot-schedules'] });
  const add = useMutation({ mutationFn: statApi.addSchedule, onSuccess: () => (setAdding(undefined), refresh()) });
  const remove = useMutation({ mutationFn: statApi.removeSchedule, onSuccess: refresh });
  return (
    <Card
      size="small"
      title="快照计划"
      style={{ marginTop: 12 }}
      extra={canAdd && <Button icon={<FieldTimeOutlined />} onClick={() => setAdding({ title: '月末党员名册', modules: ['member', 'org'], every: 'month-end' })}>新增计划</Button>}
    >
      <Table<SnapshotSchedule>
        rowKey="id"
        size="small"
        pagination={false}
        loading={schedules.isLoading}
        dataSource={schedules.data}
        locale={{ emptyText: '暂无快照计划' }}
        columns={[
          { title: '计划名称', dataIndex: 'title' },
          { title: '周期', dataIndex: 'every', render: (v: string) => EVERY.find((e) => e.value === v)?.label },
          { title: '包含数据', dataIndex: 'modules', render: (v: string[]) => v.map(moduleTitle).join('、') },
          { title: '上次执行', dataIndex: 'lastRun', render: (v: string | null) => v ?? '尚未执行' },
          ...(canAdd ? [{ title: '操作', key: 'op', width: 80, render: (_: unknown, r: SnapshotSchedule) => <Button type="text" danger size="small" aria-label={`删除${r.title}`} icon={<DeleteOutlined />} onClick={() => remove.mutate(r.id)} /> }] : []),
        ]}
      />
      <Modal title="新增快照计划" open={!!adding} onCancel={() => setAdding(undefined)} onOk={() => adding && add.mutate(adding)} confirmLoading={add.isPending} okButtonProps={{ disabled: !adding?.title.trim() || !adding.modules.length }}>
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Input aria-label="计划名称" maxLength={60} value={adding?.title} onChange={(e) => setAdding({ ...adding!, title: e.target.value })} />
          <Radio.Group options={EVERY} value={adding?.every} onChange={(e) => setAdding({ ...adding!, every: e.target.value as string })} />
          <Checkbox.Group options={MODULES} value={adding?.modules} onChange={(modules) => setAdding({ ...adding!, modules: modules as string[] })} />
        </Space>
      </Modal>
    </Card>
  );
}

export default function SnapshotPage() {
  const { message } = App.useApp();
  const client = useQueryClient();
  const snapshots = useQuery({ queryKey: ['snapshots'], queryFn: statApi.snapshots, refetchInterval: (q) => (q.state.data?.some((s) => s.state === 1) ? 2000 : false) });
  const [creating, setCreating] = useState<{ title: string; modules: string[] }>();
  const [compare, setCompare] = useState<{ a?: number; b?: number; module: string }>({ module: 'member' });
  const [shown, setShown] = useState<{ a: number; b: number; module: string }>();
  // A big snapshot export runs as a job: its progress and file here (its message leads here).
  const [jobId, setJobId] = useJobParam();
  const take = useMutation({
    mutationFn: (c: { title: string; modules: string[] }) => statApi.takeSnapshot(c.title, c.modules),
    onSuccess: () => {
      setCreating(undefined);
      message.success('快照任务已开始，完成后将在消息中通知您');
      void client.invalidateQueries({ queryKey: ['snapshots'] });
    },
  });
  const done = (snapshots.data ?? []).filter((s) => s.state === 2);
  const options = done.map((s) => ({ value: s.id, label: `${s.title}（${s.takenAt.slice(0, 10)}）` }));

  return (
    <div className="page-container">
      {jobId !== undefined && <JobProgress id={jobId} onClose={() => setJobId(undefined)} />}
      <Card
        size="small"
        title="数据快照"
        extra={
          <Permission roles={[PAGE_BUTTONS.takeSnapshot.permission]}>
            <Button type="primary" icon={<CameraOutlined />} onClick={() => setCreating({ title: `${new Date().toISOString().slice(0, 10)} 快照`, modules: ['member', 'org'] })}>
              新建快照
            </Button>
          </Permission>
        }
      >
        <Table<Snapshot>
          rowKey="id"
          size="small"
          loading={snapshots.isLoading}
          dataSource={snapshots.data}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          columns={[
            { title: '快照名称', dataIndex: 'title', render: (v: string, r: Snapshot) => (r.note ? <div>{v}<div className="snapshot-note">{r.note}</div></div> : v) },
            { title: '快照时间', dataIndex: 'takenAt', width: 170, render: (v: string) => new Date(v).toLocaleString('zh-CN', { hour12: false }) },
            { title: '包含数据', key: 'modules', render: (_: unknown, s) => s.modules.map((m) => <Tag key={m}>{moduleTitle(m)} {s.counts[m] ?? ''}</Tag>) },
            { title: '本次存储（变化的记录）', key: 'stored', render: (_: unknown, s) => s.modules.map((m) => `${moduleTitle(m)} ${s.stored[m] ?? 0}`).join('，') },
            { title: '状态', dataIndex: 'state', width: 90, render: (v: number) => <Tag color={STATE_COLORS[v]}>{EXPORT_STATE_LABELS[v]}</Tag> },
            { title: '创建人', dataIndex: 'createdByName', width: 120 },
            {
              title: '导出',
              key: 'export',
              render: (_: unknown, s) =>
                s.state === 2 &&
                s.modules.map((m) => (
                  <Button key={m} type="link" size="small" icon={<DownloadOutlined />} onClick={() => void downloadOrJob(`/api/snapshots/${s.id}/export`, { params: { module: m }, fallbackName: `${s.title}-${moduleTitle(m)}.xlsx` }).then((r) => r.jobId && setJobId(r.jobId))}>
                    {moduleTitle(m)}
                  </Button>
                )),
            },
          ]}
        />
      </Card>
      <Schedules />
      <Card size="small" title="快照比较" style={{ marginTop: 12 }}>
        <Space wrap>
          <Select aria-label="较早的快照" placeholder="较早的快照" style={{ width: 320 }} options={options} value={compare.a} onChange={(a: number) => setCompare({ ...compare, a })} />
          <SwapOutlined />
          <Select aria-label="较晚的快照" placeholder="较晚的快照" style={{ width: 320 }} options={options} value={compare.b} onChange={(b: number) => setCompare({ ...compare, b })} />
          <Select aria-label="比较的数据" style={{ width: 140 }} options={MODULES} value={compare.module} onChange={(module: string) => setCompare({ ...compare, module })} />
          <Button type="primary" disabled={!compare.a || !compare.b} onClick={() => setShown({ a: compare.a!, b: compare.b!, module: compare.module })}>
            比较
          </Button>
        </Space>
        {shown && <DiffView key={`${shown.a}-${shown.b}-${shown.module}`} {...shown} />}
      </Card>
      <Modal title="新建快照" open={!!creating} onCancel={() => setCreating(undefined)} onOk={() => creating && take.mutate(creating)} okText="开始快照" confirmLoading={take.isPending} okButtonProps={{ disabled: !creating?.title.trim() || !creating.modules.length }}>
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Input aria-label="快照名称" maxLength={60} value={creating?.title} onChange={(e) => setCreating({ ...creating!, title: e.target.value })} />
          <Checkbox.Group options={MODULES} value={creating?.modules} onChange={(modules) => setCreating({ ...creating!, modules: modules as string[] })} />
        </Space>
      </Modal>
    </div>
  );
}
