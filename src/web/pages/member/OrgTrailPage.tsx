import { useQuery } from '@tanstack/react-query';
import { Input, Segmented, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { parseTime } from '../../../shared/format';
import { get } from '../../core/request/request';
import type { Page } from '../../../shared/paging';

interface Change {
  field: string;
  title: string;
  before: unknown;
  after: unknown;
  beforeLabel?: string;
  afterLabel?: string;
}

interface TrailRow {
  id: number;
  moduleTitle: string;
  recordName: string | null;
  recordId: number;
  typeLabel: string;
  originLabel: string;
  username: string;
  at: string;
  changes: Change[];
}

const show = (label: string | undefined, value: unknown) => label ?? (value === null || value === undefined || value === '' ? '（空）' : String(value));

/** 单位与组织修改痕迹: every change to units and party organisations, newest first, with field diffs. */
export default function OrgTrailPage() {
  const [module, setModule] = useState<'all' | 'org' | 'unit'>('all');
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(0);
  const trail = useQuery({
    queryKey: ['org-trail', module, keyword, page],
    queryFn: () => get<Page<TrailRow>>('/api/trail/orgs', { module: module === 'all' ? undefined : module, keyword: keyword || undefined, page, size: 20 }),
  });
  return (
    <div className="page-container">
      <Space wrap style={{ marginBottom: 16 }}>
        <Segmented value={module} onChange={(v) => { setModule(v as typeof module); setPage(0); }} options={[{ label: '全部', value: 'all' }, { label: '党组织', value: 'org' }, { label: '单位', value: 'unit' }]} />
        <Input.Search allowClear placeholder="名称或修改人" style={{ width: 240 }} onSearch={(v) => { setKeyword(v); setPage(0); }} />
      </Space>
      <Table<TrailRow>
        rowKey="id"
        size="small"
        loading={trail.isLoading}
        dataSource={trail.data?.content}
        pagination={{ current: page + 1, pageSize: 20, total: trail.data?.totalElements, onChange: (p) => setPage(p - 1), showTotal: (t) => `共 ${t} 条` }}
        expandable={{
          expandedRowRender: (row) => (
            <Table<Change> rowKey="field" size="small" pagination={false} dataSource={row.changes}
              columns={[
                { title: '字段', dataIndex: 'title', width: 160 },
                { title: '修改前', render: (_, c) => <span className="trail-before">{show(c.beforeLabel, c.before)}</span> },
                { title: '修改后', render: (_, c) => <span className="trail-after">{show(c.afterLabel, c.after)}</span> },
              ]} />
          ),
        }}
        columns={[
          { title: '类别', dataIndex: 'moduleTitle', width: 80 },
          { title: '名称', dataIndex: 'recordName' },
          { title: '变更类型', dataIndex: 'typeLabel', width: 90, render: (v: string) => <Tag color={v === '新增' ? 'green' : 'blue'}>{v}</Tag> },
          { title: '来源', dataIndex: 'originLabel', width: 110 },
          { title: '修改字段', render: (_, r) => r.changes.map((c) => c.title).join('、'), ellipsis: true },
          { title: '修改人', dataIndex: 'username', width: 110 },
          { title: '修改时间', dataIndex: 'at', width: 170, render: (v: string) => parseTime(v) },
        ]}
      />
    </div>
  );
}
