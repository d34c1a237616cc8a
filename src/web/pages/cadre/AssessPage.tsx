/**
 * 干部考核: one year's results of the current cadres in the caller's units, entered in the table or
 * imported from .xlsx (the runtime's import of `cadre-assessment`), with each unit's 优秀 count against
 * its cap (the server refuses a result over it: domain/cadre/assessment.ts).
 */
import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Input, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useHasPermission } from '../../core/Permission';
import { get, post, put } from '../../core/request/request';
import { moduleApi } from '../../renderer/api';
import { ImportDialog } from '../../renderer/list/ImportDialog';
import { ASSESSMENT_RESULTS } from '../../../shared/cadre-analysis';
import type { Page } from '../../../shared/paging';

interface Row {
  id: number;
  name: string;
  unitName?: string;
  postLabel?: string;
  rankLabel?: string;
  assessmentId?: number | null;
  version?: number | null;
  result?: string | null;
}
interface Caps {
  year: number;
  percent: number;
  units: { unitId: number; unitName: string; participants: number; excellent: number; cap: number }[];
}

const lastYear = new Date().getFullYear() - 1;
const years = Array.from({ length: 6 }, (_, i) => lastYear + 1 - i);
const RESULT_COLORS: Record<string, string> = { 优秀: 'green', 称职: 'blue', 基本称职: 'orange', 不称职: 'red' };

export default function AssessPage() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [year, setYear] = useState(lastYear);
  const [q, setQ] = useState('');
  const [result, setResult] = useState<string>();
  const [page, setPage] = useState(0);
  const [importing, setImporting] = useState(false);
  const canEdit = useHasPermission(['cadre-info:edit']);
  const canImport = useHasPermission(['cadre-info:import']);
  const list = useQuery({ queryKey: ['cadre-assess', year, q, result, page], queryFn: () => get<Page<Row>>('/api/cadre/assess', { year, q, result, page, size: 20 }) });
  const caps = useQuery({ queryKey: ['cadre-assess-caps', year], queryFn: () => get<Caps>('/api/cadre/assess/caps', { year }) });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['cadre-assess'] }).then(() => queryClient.invalidateQueries({ queryKey: ['cadre-assess-caps'] }));

  const save = async (row: Row, value: string) => {
    if (row.assessmentId) await put('/api/m/cadre-assessment', { id: row.assessmentId, version: row.version, result: value });
    else await post('/api/m/cadre-assessment', { cadreId: row.id, year, result: value });
    message.success(`已保存${row.name}${year}年度考核结果：${value}`);
    refresh();
  };
  const over = (caps.data?.units ?? []).filter((u) => u.excellent >= u.cap);

  return (
    <div className="page-container">
      <Space wrap style={{ marginBottom: 16 }}>
        <Select style={{ width: 120 }} value={year} onChange={(y) => { setYear(y); setPage(0); }} options={years.map((y) => ({ value: y, label: `${y}年度` }))} />
        <Input.Search allowClear placeholder="姓名" style={{ width: 180 }} onSearch={(v) => { setQ(v); setPage(0); }} />
        <Select allowClear placeholder="考核结果" style={{ width: 140 }} value={result} onChange={(v) => { setResult(v); setPage(0); }}
          options={[...ASSESSMENT_RESULTS.map((r) => ({ value: r, label: r })), { value: 'none', label: '未录入' }]} />
        {canImport && <Button icon={<UploadOutlined />} onClick={() => setImporting(true)}>导入考核结果</Button>}
        {canImport && <Button icon={<DownloadOutlined />} onClick={() => void moduleApi.template('cadre-assessment', '干部年度考核')}>下载模板</Button>}
      </Space>
      {caps.data && (
        <Card size="small" style={{ marginBottom: 16 }} title={`优秀等次限额：参加考核人数的${caps.data.percent}%（不足1人的按1人）`}>
          {over.length ? (
            <Space wrap>
              {over.map((u) => (
                <Tag key={u.unitId} color={u.excellent > u.cap ? 'red' : 'gold'} className="assess-cap">
                  {u.unitName}：优秀{u.excellent}/{u.cap}人{u.excellent >= u.cap ? '（已满）' : ''}
                </Tag>
              ))}
            </Space>
          ) : (
            <Alert type="success" showIcon title={`${year}年度各单位优秀人数均未达到限额`} />
          )}
        </Card>
      )}
      <Table<Row>
        rowKey="id"
        size="small"
        loading={list.isLoading}
        dataSource={list.data?.content}
        pagination={{ current: page + 1, pageSize: 20, total: list.data?.totalElements, onChange: (p) => setPage(p - 1), showTotal: (t) => `共 ${t} 人`, showSizeChanger: false }}
        columns={[
          { title: '姓名', dataIndex: 'name', width: 100 },
          { title: '单位', dataIndex: 'unitName', ellipsis: true },
          { title: '职务', dataIndex: 'postLabel', ellipsis: true },
          { title: '职级', dataIndex: 'rankLabel', width: 90 },
          {
            title: `${year}年度考核结果`,
            dataIndex: 'result',
            width: 180,
            render: (v: string | null, row) =>
              canEdit ? (
                <Select size="small" style={{ width: 140 }} placeholder="未录入" value={v ?? undefined} aria-label={`${row.name}考核结果`}
                  onChange={(value) => void save(row, value).catch(() => undefined)} options={ASSESSMENT_RESULTS.map((r) => ({ value: r, label: r }))} />
              ) : v ? <Tag color={RESULT_COLORS[v]}>{v}</Tag> : <span style={{ color: '#999' }}>未录入</span>,
          },
        ]}
      />
      {importing && <ImportDialog module="cadre-assessment" title="干部年度考核" open onClose={() => { setImporting(false); refresh(); }} />}
    </div>
  );
}
