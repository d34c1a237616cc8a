/**
 * 统计报表: the built-in reports (the yearly party statistics) over live data or a snapshot, as a table
 * with totals and a chart; a click on any figure lists the records behind it (the report's drill-down
 * where tree, run by 综合查询 or over the snapshot); the table exports to .xlsx.
 */
import { CopyOutlined, DeleteOutlined, DownloadOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Col, Drawer, Empty, InputNumber, Menu, Popconfirm, Row, Select, Space, Spin, Table, Tag, Typography } from 'antd';
import { lazy, Suspense, useMemo, useState } from 'react';
import { ANY_MEMBER_STATUS, ACTIVE_MEMBER_STATUS } from '../../../shared/party-members';
import type { QueryGroup, ReportResult, ReportRow, ReportSummary } from '../../../shared/statistics';
import { useHasPermission } from '../../core/Permission';
import { MemberStatusSelect } from '../member/MemberStatusSelect';
import { OrgTreeSelect } from '../member/OrgTreeSelect';
import { postDownload, statApi, type Row as Record_ } from './api';
import type { DesignTarget } from './ReportDesigner';
import './statistics.css';
import { PAGE_BUTTONS } from '../../../shared/page-actions';

const CategoryChart = lazy(() => import('../../core/charts/CategoryChart'));
const ReportDesigner = lazy(() => import('./ReportDesigner'));

/** The report list as menu groups: built-in, the user's own designs, designs shared by others. */
function menuGroups(list: ReportSummary[]) {
  const groups: [string, ReportSummary[]][] = [
    ['内置报表', list.filter((r) => r.builtin)],
    ['我的报表', list.filter((r) => !r.builtin && r.mine)],
    ['共享报表', list.filter((r) => !r.builtin && !r.mine)],
  ];
  return groups.filter(([, items]) => items.length).map(([label, items]) => ({ type: 'group' as const, key: label, label, children: items.map((x) => ({ key: x.id, label: x.title })) }));
}

/** A figure's records: a where tree over the report's module, or a cell of 党员增减变化 (its members, by measure and organisation). */
interface Drill {
  title: string;
  where?: QueryGroup;
  change?: { year: number; measure: string; orgId?: number };
}

function DrillList({ report, drill, snapshot }: { report: ReportResult; drill: Drill; snapshot?: number }) {
  const [page, setPage] = useState(0);
  const records = useQuery({
    queryKey: ['report-drill', report.module, drill.where, drill.change, snapshot, page],
    queryFn: () =>
      drill.change
        ? statApi.memberChangeMembers({ ...drill.change, page, size: 10 })
        : snapshot
          ? statApi.snapshotRecords(snapshot, { module: report.module, where: drill.where, page, size: 10 })
          : statApi.run({ module: report.module, where: drill.where!, page, size: 10 }),
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
  const { message } = App.useApp();
  const client = useQueryClient();
  const reports = useQuery({ queryKey: ['reports'], queryFn: statApi.reports });
  const sources = useQuery({ queryKey: ['stat-sources'], queryFn: statApi.sources });
  const designer = useHasPermission([PAGE_BUTTONS.designReport.permission]);
  const [design, setDesign] = useState<DesignTarget>();
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
  // 党员增减变化 is computed from the records' dates of a year: no snapshot; its figures list their members.
  const isChange = current?.source === 'member-change';
  const yearly = current?.id === 'development-in-year' || isDues || isChange || !current?.builtin;
  const filter = useMemo(() => ({ ...(orgId ? { orgId } : {}), ...(isMembers && status !== ANY_MEMBER_STATUS ? { partyStatus: status } : {}) }), [orgId, status, isMembers]);
  const params = { year, filter, ...(snapshot ? { snapshot } : {}) };
  const result = useQuery({ queryKey: ['report', current?.id, params], queryFn: () => statApi.runReport(current!.id, params), enabled: !!current });
  const r = result.data;
  const chartKey = r?.columns.find((c) => c.key.startsWith('__total|'))?.key ?? r?.columns[1]?.key;
  const chartRows = r?.rows.filter((row) => !row.subtotal) ?? [];
  /** Opens the designer on a copy of the current report, or (its owner) on the report itself. */
  const openDesigner = async (edit: boolean) => {
    const { definition, shared } = await statApi.reportDefinition(current!.id);
    setDesign(edit ? { id: current!.id, definition, shared } : { definition: { ...definition, title: `${definition.title}（副本）` } });
  };
  const remove = useMutation({
    mutationFn: (rid: string) => statApi.removeReport(rid),
    onSuccess: () => {
      message.success('报表已删除');
      setId(undefined);
      void client.invalidateQueries({ queryKey: ['reports'] });
    },
  });
  const open = (row: ReportRow | undefined, key: string, title: string) => {
    if (isChange) return setDrill({ title, change: { year, measure: key.slice(key.lastIndexOf('|') + 1), ...(row ? { orgId: Number(row.key) } : orgId ? { orgId } : {}) } });
    const where = row ? row.drill[key] : r?.totalsDrill[key];
    if (where) setDrill({ title, where });
  };
  const cell = (row: ReportRow | undefined, key: string, colTitle: string) => {
    const raw = row ? row.values[key] : r?.totals[key];
    const v = raw && r?.columns.find((c) => c.key === key)?.unit === 'yuan' ? raw.toFixed(2) : raw;
    const drills = isChange || !!(row ? row.drill[key] : r?.totalsDrill[key]);
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
  const module = sources.data?.find((s) => s.code === current?.source)?.module;
  const snapshotOptions = (snapshots.data ?? []).filter((s) => s.state === 2 && module && s.modules.includes(module)).map((s) => ({ value: s.id, label: `${s.title}（${s.takenAt.slice(0, 10)}）` }));

  return (
    <div className="page-container">
      <Row gutter={16}>
        <Col xs={24} lg={5}>
          <Card
            size="small"
            title="报表"
            extra={
              designer && (
                <Button size="small" type="primary" icon={<PlusOutlined />} onClick={() => setDesign({})}>
                  设计报表
                </Button>
              )
            }
          >
            {reports.isLoading ? <Spin /> : <Menu className="report-menu" mode="inline" selectedKeys={current ? [current.id] : []} items={menuGroups(list)} onClick={(e) => (setId(e.key), setSnapshot(undefined))} style={{ borderInlineEnd: 'none' }} />}
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
                  {!current.builtin && <Tag>{current.mine ? (current.shared ? '我设计的·已共享' : '我设计的') : `${current.ownerName}共享`}</Tag>}
                  <OrgTreeSelect value={orgId} onChange={setOrgId} width={260} />
                  {isMembers && <MemberStatusSelect value={status} onChange={setStatus} />}
                  {yearly && <InputNumber aria-label="统计年度" prefix="年度" min={1921} max={2200} value={year} onChange={(v) => v && setYear(v)} style={{ width: 130 }} />}
                  {!isDues && !isChange && <Select aria-label="数据来源" style={{ width: 260 }} value={snapshot ?? 0} onChange={(v: number) => setSnapshot(v || undefined)} options={[{ value: 0, label: '实时数据' }, ...snapshotOptions]} />}
                  <Button icon={<DownloadOutlined />} onClick={() => void postDownload(`/api/reports/${current.id}/export`, { params }, `${current.title}.xlsx`)}>
                    导出
                  </Button>
                  {designer && !isDues && (
                    <Button icon={<CopyOutlined />} onClick={() => void openDesigner(false)}>
                      复制为新报表
                    </Button>
                  )}
                  {designer && current.mine && (
                    <>
                      <Button icon={<EditOutlined />} onClick={() => void openDesigner(true)}>
                        修改
                      </Button>
                      <Popconfirm title={`删除报表“${current.title}”？`} onConfirm={() => remove.mutate(current.id)}>
                        <Button danger icon={<DeleteOutlined />}>
                          删除
                        </Button>
                      </Popconfirm>
                    </>
                  )}
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
                      rowClassName={(row) => (row.subtotal ? 'report-subtotal' : '')}
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
                    {r && chartKey && chartRows.length ? (
                      <Suspense fallback={<div style={{ height: 300 }} />}>
                        <CategoryChart
                          unit={current.source === 'organisations' ? '个' : isDues ? '人次' : '人'}
                          kind={r.chart === 'auto' ? undefined : r.chart}
                          categories={chartRows.map((row) => ({ label: row.label, count: row.values[chartKey] ?? 0 }))}
                          onPick={(c) => open(chartRows.find((row) => row.label === c.label), chartKey, c.label)}
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
      {design && (
        <Suspense fallback={null}>
          <ReportDesigner
            target={design}
            onClose={() => setDesign(undefined)}
            onSaved={(saved) => {
              setDesign(undefined);
              setId(saved.id);
              setSnapshot(undefined);
              void client.invalidateQueries({ queryKey: ['reports'] });
              void client.invalidateQueries({ queryKey: ['report', saved.id] });
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
