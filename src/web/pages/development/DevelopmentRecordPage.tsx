/**
 * 发展纪实 (menu `core:development-record`): find an application (name, ID number or student/staff
 * number, within an organisation) and read its whole record as one printable page; export the
 * organisation's development pipeline (发展党员名册) as a spreadsheet.
 */
import { DownloadOutlined, PrinterOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Empty, Input, List, Pagination, Result, Skeleton, Space, Tag } from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Permission } from '../../core/Permission';
import { OrgTreeSelect } from '../member/OrgTreeSelect';
import { developmentApi } from './api';
import { RecordSheet } from './RecordSheet';
import './development.css';

const PAGE_SIZE = 15;

export default function DevelopmentRecordPage() {
  const [params, setParams] = useSearchParams();
  const [q, setQ] = useState('');
  const [typed, setTyped] = useState('');
  const [orgId, setOrgId] = useState<number>();
  const [page, setPage] = useState(0);
  const selected = Number(params.get('id')) || undefined;
  const [exporting, setExporting] = useState(false);
  const list = useQuery({
    queryKey: ['development-records', q, orgId, page],
    queryFn: () => developmentApi.records({ q: q || undefined, orgId, page, size: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const record = useQuery({ queryKey: ['module', 'development', 'sheet', selected], queryFn: () => developmentApi.record(selected!), enabled: !!selected });
  const choose = (id: number) => setParams({ id: String(id) }, { replace: true });

  const exportPipeline = async () => {
    setExporting(true);
    try {
      await developmentApi.exportPipeline(orgId);
    } catch {
      // Shown by the request layer.
    } finally {
      setExporting(false);
    }
  };

  return (
    <div className="rt-page dev-record-page">
      <aside className="rt-card dev-picker">
        <Space direction="vertical" style={{ width: '100%' }}>
          <OrgTreeSelect value={orgId} onChange={(v) => { setOrgId(v); setPage(0); }} width={280} />
          <Input.Search
            allowClear
            placeholder="姓名、身份证号或学号/工号"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            onSearch={(v) => { setQ(v.trim()); setPage(0); }}
            enterButton
          />
          <Permission roles={['development:export', 'development-record:list']}>
            <Button block icon={<DownloadOutlined />} loading={exporting} onClick={() => void exportPipeline()} className="dev-export">
              导出发展党员名册
            </Button>
          </Permission>
        </Space>
        <List
          className="dev-picker-list"
          loading={list.isFetching}
          dataSource={list.data?.content ?? []}
          locale={{ emptyText: '没有符合条件的发展党员' }}
          renderItem={(r) => (
            <List.Item className={r.id === selected ? 'dev-picked' : undefined} onClick={() => choose(r.id)} data-id={r.id}>
              <div className="dev-picker-item">
                <div>
                  <b>{r.name}</b> <Tag>{r.stateLabel}</Tag>
                </div>
                <div className="dev-picker-sub">{r.orgIdName}</div>
              </div>
            </List.Item>
          )}
        />
        {(list.data?.totalElements ?? 0) > PAGE_SIZE && (
          <Pagination size="small" simple current={page + 1} pageSize={PAGE_SIZE} total={list.data?.totalElements} onChange={(p) => setPage(p - 1)} />
        )}
      </aside>
      <main className="rt-card dev-sheet-card">
        {!selected ? (
          <Empty description="请在左侧选择一名发展党员，查看其发展纪实" />
        ) : record.isLoading ? (
          <Skeleton active paragraph={{ rows: 16 }} />
        ) : record.isError || !record.data ? (
          <Result status="warning" title="发展纪实加载失败" subTitle="该记录可能已被删除，或不在您的管理范围内。" />
        ) : (
          <>
            <div className="dev-sheet-actions">
              <Button type="primary" icon={<PrinterOutlined />} onClick={() => window.print()}>
                打印
              </Button>
            </div>
            <RecordSheet data={record.data} />
          </>
        )}
      </main>
    </div>
  );
}
