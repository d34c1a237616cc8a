/**
 * 党费统计: a year per month (with a chart of the monthly collection) and per organisation, the arrears
 * list and the members unpaid for six months (自行脱党 candidates); each exports to .xlsx.
 */
import { DownloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Empty, Radio, Row, Select, Space, Statistic, Table, Tabs, Button, Progress, Tag } from 'antd';
import { lazy, Suspense, useState } from 'react';
import type { ArrearsRow, LapseCandidate, MonthFigures, ProgressNode } from '../../../shared/dues/api';
import { Permission } from '../../core/Permission';
import { OrgTreeSelect } from '../member/OrgTreeSelect';
import { duesApi, monthText, percent } from './api';
import { useExpanded } from './useExpanded';
import { yearOptions } from './years';
import { PaidUpToLabel } from './PaidUpTo';
import './dues.css';

const MonthlyChart = lazy(() => import('./MonthlyChart'));

const rateCell = (r: number) => <Progress percent={Number((r * 100).toFixed(1))} size="small" format={() => percent(r)} />;

function YearTab({ year, orgId }: { year: number; orgId?: number }) {
  const report = useQuery({ queryKey: ['dues', 'year', year, orgId], queryFn: () => duesApi.year(year, orgId) });
  const r = report.data;
  const expandable = useExpanded(r?.orgs);
  if (!report.isLoading && r && !r.months.length) return <Empty description={`${year}年还没有收费批次`} />;
  return (
    <Space orientation="vertical" style={{ width: '100%' }} size={16}>
      <Row gutter={16}>
        <Col span={6}><Card size="small"><Statistic title="应交（元）" value={r?.totals.due ?? '—'} /></Card></Col>
        <Col span={6}><Card size="small"><Statistic title="实交（元）" value={r?.totals.paid ?? '—'} /></Card></Col>
        <Col span={6}><Card size="small"><Statistic title="应缴人次 / 已缴人次" value={r ? `${r.totals.items} / ${r.totals.paidItems}` : '—'} /></Card></Col>
        <Col span={6}><Card size="small"><Statistic title="缴纳率" value={r ? percent(r.totals.rate) : '—'} /></Card></Col>
      </Row>
      <Card size="small" title="月度收缴情况">
        {r && (
          <Suspense fallback={<div style={{ height: 320 }} />}>
            <MonthlyChart months={r.months} />
          </Suspense>
        )}
        <Table<MonthFigures>
          rowKey="batchId"
          size="small"
          loading={report.isLoading}
          dataSource={r?.months}
          pagination={false}
          columns={[
            { title: '批次', dataIndex: 'title' },
            { title: '状态', dataIndex: 'stateLabel', width: 80 },
            { title: '应缴人数', dataIndex: 'members', width: 90, align: 'right' },
            { title: '已缴人数', dataIndex: 'paidMembers', width: 90, align: 'right' },
            { title: '应交（元）', dataIndex: 'due', width: 120, align: 'right' },
            { title: '实交（元）', dataIndex: 'paid', width: 120, align: 'right' },
            { title: '缴纳率', dataIndex: 'rate', width: 160, render: rateCell },
          ]}
        />
      </Card>
      <Card size="small" title="按党组织（全年）">
        <Table<ProgressNode>
          rowKey="orgId"
          size="small"
          loading={report.isLoading}
          dataSource={r?.orgs}
          pagination={false}
          expandable={expandable}
          columns={[
            { title: '党组织', dataIndex: 'name', width: 320 },
            { title: '应缴人次', dataIndex: 'members', width: 90, align: 'right' },
            { title: '已缴人次', dataIndex: 'paidMembers', width: 90, align: 'right' },
            { title: '应交（元）', dataIndex: 'due', width: 120, align: 'right' },
            { title: '实交（元）', dataIndex: 'paid', width: 120, align: 'right' },
            { title: '缴纳率', dataIndex: 'rate', width: 160, render: rateCell },
          ]}
        />
      </Card>
    </Space>
  );
}

function ArrearsTab({ orgId }: { orgId?: number }) {
  const [period, setPeriod] = useState('closed');
  const [page, setPage] = useState(0);
  const list = useQuery({ queryKey: ['dues', 'arrears', orgId, period, page], queryFn: () => duesApi.arrears({ orgId, period, page, size: 20 }) });
  return (
    <>
      <Space style={{ marginBottom: 12 }}>
        <Radio.Group value={period} onChange={(e) => (setPeriod(e.target.value), setPage(0))} options={[{ value: 'closed', label: '已关闭批次' }, { value: 'all', label: '含收缴中的批次' }]} optionType="button" />
        <Permission roles={['dues-report:export']}>
          <Button icon={<DownloadOutlined />} onClick={() => void duesApi.exportArrears({ orgId, period })}>导出欠缴名单</Button>
        </Permission>
      </Space>
      <Table<ArrearsRow>
        rowKey="memberId"
        size="small"
        loading={list.isFetching}
        dataSource={list.data?.content}
        pagination={{ current: page + 1, pageSize: 20, total: list.data?.totalElements, showSizeChanger: false, showTotal: (t) => `共 ${t} 人`, onChange: (p) => setPage(p - 1) }}
        columns={[
          { title: '姓名', dataIndex: 'name', width: 90 },
          { title: '党支部', dataIndex: 'orgName', width: 220, ellipsis: true },
          { title: '欠缴月份', dataIndex: 'months', render: (m: string[]) => m.map(monthText).join('、') },
          { title: '欠缴金额（元）', dataIndex: 'owed', width: 120, align: 'right' },
          { title: '已登记缓交', dataIndex: 'deferred', width: 100, align: 'right', render: (n: number) => (n ? `${n}个月` : '') },
        ]}
      />
    </>
  );
}

function LapseTab({ orgId }: { orgId?: number }) {
  const list = useQuery({ queryKey: ['dues', 'lapse', orgId], queryFn: () => duesApi.lapse(orgId) });
  return (
    <>
      <Space style={{ marginBottom: 12 }}>
        <span className="dues-hint">党员没有正当理由连续6个月不交纳党费，按自行脱党处理（党章第九条）。名单供党支部核实，不自动处理。</span>
        <Permission roles={['dues-report:export']}>
          <Button icon={<DownloadOutlined />} onClick={() => void duesApi.exportLapse(orgId)}>导出名单</Button>
        </Permission>
      </Space>
      <Table<LapseCandidate>
        rowKey="memberId"
        size="small"
        loading={list.isLoading}
        dataSource={list.data?.content}
        pagination={{ pageSize: 20, showTotal: (t) => `共 ${t} 人` }}
        columns={[
          { title: '姓名', dataIndex: 'name', width: 90 },
          { title: '党支部', dataIndex: 'orgName', width: 220, ellipsis: true },
          { title: '连续未交月份', dataIndex: 'months', render: (m: string[]) => `${monthText(m[0])}至${monthText(m[m.length - 1])}` },
          { title: <PaidUpToLabel />, dataIndex: 'paidUpTo', width: 120, render: (m: string | null) => (m ? monthText(m) : <Tag>无</Tag>) },
          { title: '欠缴金额（元）', dataIndex: 'owed', width: 120, align: 'right' },
        ]}
      />
    </>
  );
}

export default function ReportPage() {
  const [year, setYear] = useState(new Date().getFullYear());
  const [orgId, setOrgId] = useState<number>();
  return (
    <div className="page-container dues-page dues-report">
      <Space wrap className="dues-toolbar">
        <Select value={year} onChange={setYear} options={yearOptions()} style={{ width: 100 }} aria-label="统计年度" />
        <OrgTreeSelect value={orgId} onChange={setOrgId} />
        <Permission roles={['dues-report:export']}>
          <Button icon={<DownloadOutlined />} onClick={() => void duesApi.exportYear(year, orgId)}>导出年度统计</Button>
        </Permission>
      </Space>
      <Tabs
        destroyOnHidden
        items={[
          { key: 'year', label: '年度统计', children: <YearTab year={year} orgId={orgId} /> },
          { key: 'arrears', label: '欠缴名单', children: <ArrearsTab orgId={orgId} /> },
          { key: 'lapse', label: '连续六个月未交', children: <LapseTab orgId={orgId} /> },
        ]}
      />
    </div>
  );
}
