import { DownloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Empty, Row, Select, Space, Spin, Statistic, Table, Tag } from 'antd';
import { Link } from 'react-router-dom';
import { letterNumberText } from '../../../shared/transfer/rules';
import { lazy, Suspense, useMemo, useState } from 'react';
import type { TransferStats } from '../../../shared/transfer/stats';
import { Permission, useHasPermission } from '../../core/Permission';
import { download } from '../../core/request/download';
import { get } from '../../core/request/request';

const MonthBarChart = lazy(() => import('./MonthBarChart'));

const thisYear = new Date().getFullYear();

interface LetterRow {
  letterNo: string;
  transferId: number;
  status: 'issued' | 'cancelled';
  issuedOn: string;
  cancelReason: string | null;
}

/** The year's introduction letters in number order, cancelled ones included (介绍信登记). */
function LetterRegister({ year }: { year: number }) {
  const letters = useQuery({ queryKey: ['transfer-letters', year], queryFn: () => get<LetterRow[]>('/api/transfers/letters', { year }) });
  return (
    <Card size="small" title={`${year}年组织关系介绍信登记`} style={{ marginTop: 16 }} className="letter-register">
      <Table<LetterRow>
        rowKey="letterNo"
        size="small"
        loading={letters.isLoading}
        dataSource={letters.data}
        pagination={{ pageSize: 20, showTotal: (n) => `共 ${n} 份` }}
        columns={[
          { title: '编号', dataIndex: 'letterNo', render: (no: string) => letterNumberText(no) },
          { title: '开具日期', dataIndex: 'issuedOn', width: 120 },
          { title: '状态', dataIndex: 'status', width: 100, render: (s: string) => (s === 'cancelled' ? <Tag color="error">已作废</Tag> : <Tag color="success">有效</Tag>) },
          { title: '作废原因', dataIndex: 'cancelReason' },
          { title: '操作', key: 'print', width: 100, render: (_v, r) => r.status === 'issued' && <Link to={`/transfer/letter/${r.transferId}`}>打印</Link> },
        ]}
      />
    </Card>
  );
}
const YEARS = Array.from({ length: 8 }, (_x, i) => thisYear - i);

/** 转接统计: per year, transfers in, out and within the school and floating members; by month, reason and letter kind. */
export default function TransferStatsPage() {
  const [year, setYear] = useState(thisYear);
  const stats = useQuery({ queryKey: ['transfer-stats', year], queryFn: () => get<TransferStats>('/api/transfers/stats', { year }) });
  const data = stats.data;
  const series = useMemo(
    () => (data ? data.kinds.map((k) => ({ name: k.title, values: data.byMonth.map((m) => m.counts[k.key] ?? 0) })) : []),
    [data],
  );
  const months = useMemo(() => data?.byMonth.map((m) => m.month) ?? [], [data]);
  const seesLetters = useHasPermission(['transfer-out:list']);
  return (
    <div className="page-container transfer-stats-page">
      <Space wrap style={{ marginBottom: 16 }}>
        <Select value={year} style={{ width: 120 }} onChange={setYear} options={YEARS.map((y) => ({ value: y, label: `${y}年` }))} aria-label="统计年份" />
        <Permission roles={['transfer-stats:export']}>
          <Button icon={<DownloadOutlined />} onClick={() => void download('/api/transfers/stats/export', { year }, `组织关系转接统计${year}.xlsx`)}>
            导出
          </Button>
        </Permission>
      </Space>
      {stats.isLoading ? (
        <Spin />
      ) : !data ? (
        <Empty />
      ) : (
        <>
          <Row gutter={[16, 16]}>
            {data.kinds.map((k) => (
              <Col key={k.key} flex="1 1 260px">
                <Card size="small" title={k.title} className="transfer-stat" data-kind={k.key}>
                  <Space size="large">
                    <Statistic title="本年发起" value={k.started} />
                    <Statistic title="本年办结" value={k.completed} />
                    <Statistic title="正在办理" value={k.underway} />
                  </Space>
                </Card>
              </Col>
            ))}
          </Row>
          <Card size="small" title={`${year}年各月办结`} style={{ marginTop: 16 }}>
            <Suspense fallback={<div style={{ height: 320 }} />}>
              <MonthBarChart months={months} series={series} />
            </Suspense>
          </Card>
          <Row gutter={[16, 16]} style={{ marginTop: 16 }}>
            {([['转出原因', data.outReasons], ['介绍信类别', data.outKinds]] as const).map(([title, rows]) => (
              <Col key={title} xs={24} md={12}>
                <Card size="small" title={`转出校外：按${title}`}>
                  <Table rowKey="label" size="small" pagination={false} dataSource={[...rows]} columns={[{ title, dataIndex: 'label' }, { title: '人数', dataIndex: 'count', width: 100 }]} />
                </Card>
              </Col>
            ))}
          </Row>
          {seesLetters && <LetterRegister year={year} />}
        </>
      )}
    </div>
  );
}
