import { DownloadOutlined, PrinterOutlined, SettingOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Checkbox, Input, Popover, Space, Table } from 'antd';
import { useMemo, useState } from 'react';
import type { ModuleSchema } from '../../../shared/module-schema/types';
import JobProgress from '../../core/jobs/JobProgress';
import { downloadOrJob, useJobParam } from '../../core/jobs/useJob';
import { get, post } from '../../core/request/request';
import { ACTIVE_MEMBER_STATUS, memberStatusOf, membersFilter } from '../../../shared/party-members';
import { MemberStatusSelect } from './MemberStatusSelect';
import { OrgTreeSelect } from './OrgTreeSelect';
import './roster.css';
import type { Page } from '../../../shared/paging';

const DEFAULT_COLUMNS = ['name', 'gender', 'ethnicity', 'birthDate', 'education', 'category', 'memberType', 'joinDate', 'fullDate', 'orgId', 'phone'];
const LABELLED = (f: { 'x-dict'?: string; 'x-ref'?: string }, name: string) => (f['x-dict'] ? `${name}Label` : f['x-ref'] ? `${name}Name` : name);

/** 花名册: the printable, exportable member roster of an organisation subtree, with a choice of columns. */
export default function MemberRosterPage() {
  const [orgId, setOrgId] = useState<number>();
  const [status, setStatus] = useState(ACTIVE_MEMBER_STATUS);
  const [name, setName] = useState('');
  const [columns, setColumns] = useState<string[]>(DEFAULT_COLUMNS);
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(20);
  // Over 10,000 members the roster is written by a job: its progress and file here (its message leads here).
  const [jobId, setJobId] = useJobParam();
  const schema = useQuery({ queryKey: ['module-schema', 'member'], queryFn: () => get<{ schema: ModuleSchema }>('/api/m/member/schema') });
  const fields = useMemo(() => Object.entries(schema.data?.schema.properties ?? {}).filter(([, f]) => !f['x-hidden'] && f.format !== 'image'), [schema.data]);
  const list = useQuery({
    queryKey: ['roster', orgId, status, name, page, size],
    queryFn: () =>
      post<Page<Record<string, unknown>>>(`/api/m/member/list?page=${page}&size=${size}&sort=orgId,asc&sort=name,asc&fields=all`, {
        ...membersFilter(orgId, memberStatusOf(status)),
        ...(name ? { name } : {}),
      }),
  });
  const tableColumns = useMemo(
    () => [
      { title: '序号', key: 'no', width: 60, render: (_: unknown, __: unknown, i: number) => page * size + i + 1 },
      ...fields.filter(([name]) => columns.includes(name)).map(([name, f]) => ({ title: f.title, dataIndex: LABELLED(f, name), key: name, ellipsis: true })),
    ],
    [fields, columns, page, size],
  );

  return (
    <div className="page-container roster-page">
      {jobId !== undefined && <JobProgress id={jobId} onClose={() => setJobId(undefined)} />}
      <Space wrap className="roster-toolbar" style={{ marginBottom: 16 }}>
        <OrgTreeSelect value={orgId} onChange={(v) => { setOrgId(v); setPage(0); }} />
        <MemberStatusSelect value={status} onChange={(v) => { setStatus(v); setPage(0); }} />
        <Input.Search allowClear placeholder="按姓名查找" style={{ width: 200 }} onSearch={(v) => { setName(v.trim()); setPage(0); }} />
        <Popover
          trigger="click"
          title="选择花名册列"
          content={
            <Checkbox.Group style={{ display: 'grid', gridTemplateColumns: 'repeat(3, 130px)', gap: 6 }} value={columns} onChange={(v) => setColumns(v as string[])}
              options={fields.map(([name, f]) => ({ label: f.title, value: name }))} />
          }
        >
          <Button icon={<SettingOutlined />}>选择列</Button>
        </Popover>
        <Button type="primary" icon={<DownloadOutlined />} onClick={() => void downloadOrJob('/api/member/roster/export', { params: { orgId, partyStatus: status, columns: columns.join(',') }, fallbackName: '党员花名册.xlsx' }).then((r) => r.jobId && setJobId(r.jobId))}>
          导出花名册
        </Button>
        <Button icon={<PrinterOutlined />} onClick={() => window.print()}>
          打印
        </Button>
      </Space>
      <h2 className="roster-title">党员花名册</h2>
      <Table
        rowKey="id"
        size="small"
        loading={list.isLoading || schema.isLoading}
        dataSource={list.data?.content}
        columns={tableColumns}
        scroll={{ x: 'max-content' }}
        pagination={{ current: page + 1, pageSize: size, total: list.data?.totalElements, showSizeChanger: true, showTotal: (t) => `共 ${t} 人`, onChange: (p, s) => { setPage(p - 1); setSize(s); } }}
      />
    </div>
  );
}
