/**
 * 统计报表: the built-in reports (the yearly party statistics) over live data or a snapshot, as a table
 * with totals and a chart; a click on any figure lists the records behind it (the report's drill-down
 * where tree, run by 综合查询 or over the snapshot); the table exports to .xlsx.
 */
import { DownloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Drawer, Empty, InputNumber, Menu, Row, Select, Space, Spin, Table, Typography } from 'antd';
import { lazy, Suspense, useMemo, useState } from 'react';
import { ANY_MEMBER_STATUS, ACTIVE_MEMBER_STATUS } from '../../../shared/party-members';
import type { QueryGroup, ReportResult, ReportRow } from '../../../shared/statistics';
import { MemberStatusSelect } from '../member/MemberStatusSelect';
import { OrgTreeSelect } from '../member/OrgTreeSelect';
import { postDownload, statApi, type Row as Record_ } from './api';
import './statistics.css';

const CategoryChart = lazy(() => import('../../core/charts/CategoryChart'));

interface Drill {
  title: string;
  where: QueryGroup;
}

function DrillList({ report, drill, snapshot }: { report: ReportResult; drill: Drill; snapshot?: number }) {
  const [page, setPage] = useState(0);
  const records = useQuery({
    queryKey: ['report-drill', report.module, drill.where, snapshot, page],
    queryFn: () =>
      snapshot
        ? statApi.snapshotRecords(snapshot, { module: report.module, where: drill.where, page, size: 10 })
        : statApi.run({ module: report.module, where: drill.where, page, size: 10 }),
  });
  const first = records.data?.content[0];
  // The list columns the answer carries (the module list's), shown by their labels.
  const keys = first ? Object.keys(first).filter((k) => !['id', 'version'].includes(k) && !k.endsWith('Label') && !k.endsWith('Name')).slice(0, 8) : [];
  return (
    <Table<Record_>
      rowKey="id"
      size="small"
      loading={records.isFetching}
      dataSource={records.data?.content}
      scroll={{ x: 'max-content' }}
      pagination={{ current: page + 1, pageSize: 10, total: records.data?.totalElements, showSizeChanger: false, onChange: (p) => setPage(p - 1), showTotal: (n) => `共 ${n} 条` }}
      columns={keys.map((k) => ({ key: k, title: TITLES[k] ?? k, render: (_: unknown, r: Record_) => String(r[`${k}Label`] ?? r[`${k}Name`] ?? r[k] ?? '') }))}
    />
  );
}

/** Column titles of the records shown in a drill-down (the member and development lists' columns). */
const TITLES: Record<string, string> = {
  name: '姓名', gender: '性别', ethnicity: '民族', age: '年龄', idCard: '身份证号', education: '学历', category: '人员类别', memberType: '党员类型', probationStatus: '预备期',
  partyStatus: '党籍状态', joinDate: '入党日期', fullDate: '转正日期', partyAge: '党龄', orgId: '所在党组织', phone: '手机号码', type: '组织类别', parentId: '上级党组织', code: '组织编码',
  shortName: '简称', stage: '发展阶段', state: '办理状态', applyDate: '申请日期', personKind: '人员身份', unitId: '所在单位', secretary: '书记', dueDate: '下一期限', dueItem: '待办事项', step: '已完成步骤',
};

export default function ReportPage() {
  const reports = useQuery({ queryKey: ['reports'], queryFn: statApi.reports });
  const snapshots = useQuery({ queryKey: ['snapshots'], queryFn: statApi.snapshots });
  const [id, setId] = useState<string>();
  const [year, setYear] = useState(new Date().getFullYear());
  const [orgId, setOrgId] = useState<number>();
  const [status, setStatus] = useState(ACTIVE_MEMBER_STATUS);
  const [snapshot, setSnapshot] = useState<number>();
  const [drill, setDrill] = useState<Drill>();
  const list = reports.data ?? [];
  const current = list.find((r) => r.id === id) ?? list[0];
  const isMembers = current?.source === 'members';
  // 党费收缴 reads the dues area's batches of a year: no snapshot, no drill-down to records.
  const isDues = current?.source === 'dues';
  const filter = useMemo(() => ({ ...(orgId ? { orgId } : {}), ...(isMembers && status !== ANY_MEMBER_STATUS ? { partyStatus: status } : {}) }), [orgId, status, isMembers]);
  const params = { year, filter, ...(snapshot ? { snapshot } : {}) };
  const result = useQuery({ queryKey: ['report', current?.id, params], queryFn: () => statApi.runReport(current!.id, params), enabled: !!current });
  const r = result.data;
  const chartKey = r?.columns.find((c) => c.key.startsWith('__total|'))?.key ?? r?.columns[1]?.key;
  const open = (row: ReportRow | undefined, key: string, title: string) => {
    const where = row ? row.drill[key] : r?.totalsDrill[key];
    if (where) setDrill({ title, where });
  };
  const cell = (row: ReportRow | undefined, key: string, colTitle: string) => {
    const raw = row ? row.values[key] : r?.totals[key];
    const v = raw && r?.columns.find((c) => c.key === key)?.unit === 'yuan' ? raw.toFixed(2) : raw;
    const drills = !!(row ? row.drill[key] : r?.totalsDrill[key]);
    return v && !drills ? (
      <span>{v}</span>
    ) : v ? (
      <span className="drill-cell" role="button" tabIndex={0} onClick={() => open(row, key, `${row?.label ?? '合计'} · ${colTitle}`)} onKeyDown={(e) => e.key === 'Enter' && open(row, key, `${row?.label ?? '合计'} · ${colTitle}`)}>
        {v}
      </span>
    ) : (
      <span>0</span>
    );
  };
  const snapshotOptions = (snapshots.data ?? []).filter((s) => s.state === 2 && current && s.modules.includes(sourceModule(current.source))).map((s) => ({ value: s.id, label: `${s.title}（${s.takenAt.slice(0, 10)}）` }));

  return (
    <div className="page-container">
      <Row gutter={16}>
        <Col xs={24} lg={5}>
          <Card size="small" title="报表">
            {reports.isLoading ? <Spin /> : <Menu mode="inline" selectedKeys={current ? [current.id] : []} items={list.map((x) => ({ key: x.id, label: x.title }))} onClick={(e) => (setId(e.key), setSnapshot(undefined))} style={{ borderInlineEnd: 'none' }} />}
          </Card>
        </Col>
        <Col xs={24} lg={19}>
          {!current ? (
            <Empty description="没有可用的报表" />
          ) : (
            <Space orientation="vertical" style={{ width: '100%' }} size={12}>
              <Card size="small">
                <Space wrap>
                  <Typography.Text strong>{current.title}</Typography.Text>
                  <OrgTreeSelect value={orgId} onChange={setOrgId} width={260} />
                  {isMembers && <MemberStatusSelect value={status} onChange={setStatus} />}
                  {(current.id === 'development-in-year' || isDues) && <InputNumber aria-label="统计年度" prefix="年度" min={1921} max={2200} value={year} onChange={(v) => v && setYear(v)} style={{ width: 130 }} />}
                  {!isDues && <Select aria-label="数据来源" style={{ width: 260 }} value={snapshot ?? 0} onChange={(v: number) => setSnapshot(v || undefined)} options={[{ value: 0, label: '实时数据' }, ...snapshotOptions]} />}
                  <Button icon={<DownloadOutlined />} onClick={() => void postDownload(`/api/reports/${current.id}/export`, { params }, `${current.title}.xlsx`)}>
                    导出
                  </Button>
                </Space>
                <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
                  {current.description}
                  {r?.snapshot ? `　数据来源：快照“${r.snapshot.title}”` : ''}
                  {isDues ? '' : '　点击数字可查看对应的记录。'}
                </Typography.Paragraph>
              </Card>
              <Row gutter={12}>
                <Col xs={24} xl={15}>
                  <Card size="small">
                    <Table<ReportRow>
                      className="report-table"
                      rowKey="key"
                      size="small"
                      loading={result.isFetching}
                      dataSource={r?.rows}
                      pagination={false}
                      scroll={{ x: 'max-content' }}
                      columns={(r?.columns ?? []).map((c, i) =>
                        i === 0
                          ? { key: c.key, title: c.title, dataIndex: 'label', fixed: 'left' as const }
                          : { key: c.key, title: c.title, align: 'right' as const, render: (_: unknown, row: ReportRow) => cell(row, c.key, c.title) },
                      )}
                      summary={() =>
                        r && (
                          <Table.Summary.Row>
                            {r.columns.map((c, i) => (
                              <Table.Summary.Cell key={c.key} index={i} align={i ? 'right' : undefined}>
                                {i === 0 ? '合计' : cell(undefined, c.key, c.title)}
                              </Table.Summary.Cell>
                            ))}
                          </Table.Summary.Row>
                        )
                      }
                    />
                  </Card>
                </Col>
                <Col xs={24} xl={9}>
                  <Card size="small" title="图表">
                    {r && chartKey && r.rows.length ? (
                      <Suspense fallback={<div style={{ height: 300 }} />}>
                        <CategoryChart
                          unit={current.source === 'organisations' ? '个' : isDues ? '人次' : '人'}
                          categories={r.rows.map((row) => ({ label: row.label, count: row.values[chartKey] ?? 0 }))}
                          onPick={(c) => open(r.rows.find((row) => row.label === c.label), chartKey, c.label)}
                        />
                      </Suspense>
                    ) : (
                      <Empty />
                    )}
                  </Card>
                </Col>
              </Row>
            </Space>
          )}
        </Col>
      </Row>
      <Drawer title={drill?.title} open={!!drill} size="large" onClose={() => setDrill(undefined)} destroyOnHidden>
        {drill && r && <DrillList report={r} drill={drill} snapshot={snapshot} />}
      </Drawer>
    </div>
  );
}

function sourceModule(source: string): string {
  return source === 'members' ? 'member' : source === 'organisations' ? 'org' : source;
}
