/**
 * 综合查询: pick a module the user may read, build conditions on its fields and on the records it refers
 * to (and/or groups), choose columns (referenced fields too) and the order, run it over live data or a
 * data snapshot in the user's data scope, save it (for oneself or shared) and export it (more than 10,000 rows: an export job whose
 * message links back here).
 */
import { DeleteOutlined, DownloadOutlined, SaveOutlined, SearchOutlined, ShareAltOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Checkbox, Col, Empty, Input, List, Modal, Row, Select, Space, Table, Tag, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useLocation } from 'react-router-dom';
import type { QueryRequest, SavedQuery } from '../../../shared/statistics';
import JobProgress from '../../core/jobs/JobProgress';
import { downloadOrJob, useJobParam } from '../../core/jobs/useJob';
import { ConditionGroup, fromWhere, newGroup, pathFields, toWhere, type EditGroup } from './ConditionEditor';
import { statApi, type Row as Record_ } from './api';
import './statistics.css';

const PAGE_SIZE = 20;

const shown = (r: Record_, key: string) => {
  const v = r[`${key}Label`] ?? r[`${key}Name`] ?? r[key];
  return v === null || v === undefined ? '' : typeof v === 'boolean' ? (v ? '是' : '否') : String(v);
};

export default function QueryPage() {
  const { message } = App.useApp();
  const client = useQueryClient();
  const { pathname } = useLocation();
  const modules = useQuery({ queryKey: ['query-modules'], queryFn: statApi.modules, staleTime: 5 * 60_000 });
  const saved = useQuery({ queryKey: ['query-saved'], queryFn: statApi.saved });
  const snapshots = useQuery({ queryKey: ['snapshots'], queryFn: statApi.snapshots });
  // 实时数据 (undefined) or a data snapshot holding the module: the query runs over its records.
  const [snapshot, setSnapshot] = useState<number>();
  const [moduleId, setModuleId] = useState<string>();
  const [where, setWhere] = useState<EditGroup>(newGroup());
  const [columns, setColumns] = useState<string[]>([]);
  const [sort, setSort] = useState<{ field?: string; dir: 'asc' | 'desc' }>({ dir: 'asc' });
  const [ran, setRan] = useState<QueryRequest>();
  const [page, setPage] = useState(0);
  const [current, setCurrent] = useState<SavedQuery>();
  const [saving, setSaving] = useState<{ title: string; shared: boolean }>();

  const all = modules.data ?? [];
  const m = all.find((x) => x.id === moduleId);
  const fields = useMemo(() => pathFields(m, all), [m, all]);
  const conditionFields = useMemo(() => fields.filter((f) => f.stored), [fields]);
  // Fields beyond the list columns need the module's detail (view) permission, as the list's "all fields" does.
  const columnFields = m?.detail ? fields : fields.filter((f) => !f.path.includes('.') && m?.listFields.includes(f.path));

  useEffect(() => {
    if (!moduleId && all.length) setModuleId(all.find((x) => x.id === 'member')?.id ?? all[0].id);
  }, [all, moduleId]);

  const request = (): QueryRequest | undefined =>
    m && { module: m.id, where: toWhere(where), columns: columns.length ? columns : undefined, sort: sort.field ? `${sort.field},${sort.dir}` : undefined, ...(snapshot ? { snapshot } : {}) };

  const results = useQuery({
    queryKey: ['query-run', ran, page],
    queryFn: () => statApi.run({ ...ran!, page, size: PAGE_SIZE }),
    enabled: !!ran,
  });

  const load = (q: SavedQuery) => {
    setCurrent(q);
    setModuleId(q.module);
    setSnapshot(q.definition.snapshot);
    setWhere(fromWhere(q.definition.where));
    setColumns(q.definition.columns ?? []);
    const [field, dir] = String(([] as string[]).concat(q.definition.sort ?? [])[0] ?? '').split(',');
    setSort({ field: field || undefined, dir: dir === 'desc' ? 'desc' : 'asc' });
    setPage(0);
    setRan({ module: q.module, where: q.definition.where, columns: q.definition.columns, sort: q.definition.sort, ...(q.definition.snapshot ? { snapshot: q.definition.snapshot } : {}) });
  };

  const save = useMutation({
    mutationFn: (s: { title: string; shared: boolean; asNew: boolean }) => statApi.save({ title: s.title, shared: s.shared, definition: request()! }, s.asNew ? undefined : current?.id),
    onSuccess: (q) => {
      setCurrent(q);
      setSaving(undefined);
      message.success('查询已保存');
      void client.invalidateQueries({ queryKey: ['query-saved'] });
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) => statApi.removeSaved(id),
    onSuccess: () => {
      setCurrent(undefined);
      void client.invalidateQueries({ queryKey: ['query-saved'] });
    },
  });

  // An export job (from the message's link, or just started): the generic job progress shows it and its file.
  const [jobId, setJobId] = useJobParam();
  const exporting = useMutation({
    mutationFn: () => downloadOrJob('/api/query/export', { method: 'POST', body: { ...ran!, title: current?.title }, fallbackName: '综合查询.xlsx', from: pathname }),
    onSuccess: ({ jobId: started }) => {
      if (started) setJobId(started);
    },
  });

  const shownColumns = ran?.columns?.length ? ran.columns : (all.find((x) => x.id === ran?.module)?.listFields ?? []);
  const ranFields = useMemo(() => new Map(pathFields(all.find((x) => x.id === ran?.module), all).map((f) => [f.path, f])), [ran, all]);

  return (
    <div className="page-container statistics-query">
      {jobId !== undefined && <JobProgress id={jobId} onClose={() => setJobId(undefined)} />}
      <Row gutter={16}>
        <Col xs={24} lg={6}>
          <Card size="small" title="已保存的查询" className="saved-queries">
            <List
              size="small"
              loading={saved.isLoading}
              locale={{ emptyText: '暂无保存的查询' }}
              dataSource={saved.data ?? []}
              renderItem={(q) => (
                <List.Item
                  className={q.id === current?.id ? 'is-current' : undefined}
                  actions={q.mine ? [<Button key="d" type="text" size="small" danger aria-label={`删除${q.title}`} icon={<DeleteOutlined />} onClick={() => remove.mutate(q.id)} />] : []}
                >
                  <a onClick={() => load(q)}>{q.title}</a>
                  {q.definition.snapshot && <Tag color="blue" style={{ marginLeft: 6 }}>快照</Tag>}
                  {q.shared && <Tag icon={<ShareAltOutlined />} style={{ marginLeft: 6 }}>{q.mine ? '已共享' : q.ownerName}</Tag>}
                </List.Item>
              )}
            />
          </Card>
        </Col>
        <Col xs={24} lg={18}>
          <Card size="small" title="查询条件">
            <Space orientation="vertical" style={{ width: '100%' }}>
              <Space wrap>
                <span>查询对象</span>
                <Select
                  aria-label="查询对象"
                  style={{ width: 220 }}
                  loading={modules.isLoading}
                  value={moduleId}
                  options={all.map((x) => ({ value: x.id, label: x.title }))}
                  showSearch={{ optionFilterProp: 'label' }}
                  onChange={(id: string) => {
                    setModuleId(id);
                    setWhere(newGroup());
                    setColumns([]);
                    setSort({ dir: 'asc' });
                    setSnapshot(undefined);
                    setCurrent(undefined);
                  }}
                />
                <span>数据来源</span>
                <Select
                  aria-label="数据来源"
                  style={{ width: 280 }}
                  value={snapshot ?? 0}
                  onChange={(v: number) => setSnapshot(v || undefined)}
                  options={[
                    { value: 0, label: '实时数据' },
                    ...(snapshots.data ?? []).filter((x) => x.state === 2 && m && x.modules.includes(m.id)).map((x) => ({ value: x.id, label: `快照：${x.title}（${x.takenAt.slice(0, 10)}）` })),
                  ]}
                />
              </Space>
              <ConditionGroup group={where} fields={conditionFields} onChange={setWhere} />
              <Space wrap>
                <span>显示列</span>
                <Select
                  aria-label="显示列"
                  mode="multiple"
                  style={{ minWidth: 420 }}
                  placeholder="默认为列表的列"
                  value={columns}
                  onChange={setColumns}
                  options={columnFields.map((f) => ({ value: f.path, label: f.label }))}
                  showSearch={{ optionFilterProp: 'label' }}
                  maxTagCount="responsive"
                />
                <span>排序</span>
                <Select
                  aria-label="排序字段"
                  allowClear
                  style={{ width: 160 }}
                  placeholder="默认排序"
                  value={sort.field}
                  onChange={(field?: string) => setSort({ ...sort, field })}
                  options={conditionFields.filter((f) => !f.path.includes('.') && m?.listFields.includes(f.path)).map((f) => ({ value: f.path, label: f.label }))}
                />
                <Select aria-label="排序方向" style={{ width: 90 }} value={sort.dir} onChange={(dir: 'asc' | 'desc') => setSort({ ...sort, dir })} options={[{ value: 'asc', label: '升序' }, { value: 'desc', label: '降序' }]} />
              </Space>
              <Space wrap>
                <Button
                  type="primary"
                  icon={<SearchOutlined />}
                  disabled={!m}
                  onClick={() => {
                    setPage(0);
                    setRan(request());
                  }}
                >
                  查询
                </Button>
                <Button icon={<SaveOutlined />} disabled={!m} onClick={() => setSaving({ title: current?.mine ? current.title : '', shared: current?.mine ? current.shared : false })}>
                  保存查询
                </Button>
                {all.find((x) => x.id === (ran?.module ?? moduleId))?.export && (
                  <Button icon={<DownloadOutlined />} disabled={!ran || !results.data?.totalElements} loading={exporting.isPending} onClick={() => exporting.mutate()}>
                    导出结果
                  </Button>
                )}
                {current && <Typography.Text type="secondary">当前：{current.title}</Typography.Text>}
              </Space>
            </Space>
          </Card>
          <Card
            size="small"
            title={results.data ? `查询结果（共 ${results.data.totalElements} 条）` : '查询结果'}
            extra={ran?.snapshot && <Tag color="blue">数据来源：快照“{snapshots.data?.find((x) => x.id === ran.snapshot)?.title ?? ran.snapshot}”</Tag>}
            style={{ marginTop: 12 }}
          >
            {!ran ? (
              <Empty description="设置条件后点击“查询”" />
            ) : (
              <Table<Record_>
                rowKey="id"
                size="small"
                loading={results.isFetching}
                dataSource={results.data?.content}
                scroll={{ x: 'max-content' }}
                pagination={{ current: page + 1, pageSize: PAGE_SIZE, total: results.data?.totalElements, showSizeChanger: false, onChange: (p) => setPage(p - 1) }}
                columns={shownColumns.map((c) => ({ key: c, title: ranFields.get(c)?.label ?? c, render: (_: unknown, r: Record_) => shown(r, c), ellipsis: true }))}
              />
            )}
          </Card>
        </Col>
      </Row>
      <Modal
        title="保存查询"
        open={!!saving}
        onCancel={() => setSaving(undefined)}
        footer={[
          <Button key="c" onClick={() => setSaving(undefined)}>取消</Button>,
          current?.mine && <Button key="n" loading={save.isPending} onClick={() => saving && save.mutate({ ...saving, asNew: true })}>另存为新查询</Button>,
          <Button key="s" type="primary" loading={save.isPending} disabled={!saving?.title.trim()} onClick={() => saving && save.mutate({ ...saving, asNew: !current?.mine })}>保存</Button>,
        ]}
      >
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Input aria-label="查询名称" placeholder="查询名称" maxLength={60} value={saving?.title} onChange={(e) => setSaving({ ...saving!, title: e.target.value })} />
          <Checkbox checked={saving?.shared} onChange={(e) => setSaving({ ...saving!, shared: e.target.checked })}>
            共享给其他用户（能查看该模块的用户可使用）
          </Checkbox>
        </Space>
      </Modal>
    </div>
  );
}
