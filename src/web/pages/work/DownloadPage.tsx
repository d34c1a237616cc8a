/**
 * 文件下载: the documents published to the caller, by category and search, with their download counts; holders of
 * `document:manage` publish and stop them in the 发布管理 tab (the module `document` through the renderer).
 */
import { DownloadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Empty, Input, Segmented, Space, Table, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { useHasPermission } from '../../core/Permission';
import ModulePage from '../../renderer/ModulePage';
import { workApi, type DocumentItem } from './api';

const ALL = '全部';

function DocumentList() {
  const [q, setQ] = useState('');
  const [category, setCategory] = useState(ALL);
  const [page, setPage] = useState(1);
  const size = 20;
  const client = useQueryClient();
  const list = useQuery({
    queryKey: ['work', 'documents', q, category, page],
    queryFn: () => workApi.documents({ q: q || undefined, category: category === ALL ? undefined : category, page, size }),
  });
  const categories = [ALL, ...(list.data?.categories ?? []).map((c) => c.category)];
  const fetchFile = async (d: DocumentItem) => {
    await workApi.download(d);
    void client.invalidateQueries({ queryKey: ['work', 'documents'] });
  };
  return (
    <Card size="small" className="rt-card work-documents">
      <Space wrap style={{ marginBottom: 12 }}>
        <Segmented options={categories} value={category} onChange={(v) => { setCategory(String(v)); setPage(1); }} aria-label="文件分类" />
        <Input.Search allowClear placeholder="搜索文件名称或说明" style={{ width: 260 }} onSearch={(v) => { setQ(v.trim()); setPage(1); }} aria-label="搜索文件" />
      </Space>
      <Table<DocumentItem>
        size="small"
        rowKey="id"
        loading={list.isLoading}
        dataSource={list.data?.content ?? []}
        locale={{ emptyText: <Empty description="暂无发布给您的文件" /> }}
        pagination={{ current: page, pageSize: size, total: list.data?.totalElements ?? 0, onChange: setPage, hideOnSinglePage: true, showTotal: (n) => `共 ${n} 个文件` }}
        columns={[
          { title: '文件名称', dataIndex: 'title', ellipsis: true, render: (v: string, d) => (<><Typography.Text strong>{v}</Typography.Text>{d.description && <div className="work-document-desc">{d.description}</div>}</>) },
          { title: '分类', dataIndex: 'category', width: 110 },
          { title: '发布日期', dataIndex: 'publishDate', width: 120 },
          { title: '下载次数', dataIndex: 'downloads', width: 100 },
          { title: '操作', key: 'op', width: 100, render: (_, d) => <Button size="small" type="link" icon={<DownloadOutlined />} disabled={!d.fileName} onClick={() => void fetchFile(d)}>下载</Button> },
        ]}
      />
    </Card>
  );
}

export default function DownloadPage({ title }: { title?: string }) {
  const manage = useHasPermission(['document:manage']);
  if (!manage) return <DocumentList />;
  return (
    <Tabs
      className="work-download-tabs"
      items={[
        { key: 'list', label: '文件下载', children: <DocumentList /> },
        { key: 'manage', label: '发布管理', children: <ModulePage moduleId="document" title={title} /> },
      ]}
    />
  );
}
