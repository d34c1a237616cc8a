import { DownloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Drawer, Empty, Row, Select, Space, Spin, Statistic, Table } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { download } from '../../core/request/download';
import { get } from '../../core/request/request';
import { RefSelect } from '../../renderer/pickers';
import { ASSESSMENT_RESULTS, type PerformanceAnalysis } from '../../../shared/cadre-analysis';
import type { Page } from '../../../shared/paging';
import { cadreColumns, type CadreRow } from './StructureAnalysisPage';

const CategoryChart = lazy(() => import('../../core/charts/CategoryChart'));

interface Pick {
  dimension?: string;
  value?: string;
  result?: string;
  title: string;
}

/** 干部绩效分析: a year's assessment results overall and by unit, rank and age band; a figure lists its cadres. */
export default function PerformanceAnalysisPage() {
  const [unitId, setUnitId] = useState<number>();
  const [year, setYear] = useState<number>();
  const [picked, setPicked] = useState<Pick>();
  const [page, setPage] = useState(0);
  const analysis = useQuery({ queryKey: ['cadre-performance', unitId, year], queryFn: () => get<PerformanceAnalysis>('/api/cadre/performance', { unitId, year }) });
  const a = analysis.data;
  const shown = year ?? a?.year;
  const cadres = useQuery({
    queryKey: ['cadre-performance-list', unitId, shown, picked, page],
    queryFn: () => get<Page<CadreRow>>('/api/cadre/performance/cadres', { unitId, year: shown, dimension: picked!.dimension, value: picked!.value, result: picked!.result, page, size: 10 }),
    enabled: !!picked,
  });
  const pick = (p: Pick) => {
    setPage(0);
    setPicked(p);
  };
  return (
    <div className="page-container">
      <Space wrap style={{ marginBottom: 16 }}>
        <Select
          style={{ width: 140 }}
          value={shown}
          placeholder="考核年度"
          onChange={setYear}
          options={[...new Set([...(a?.years ?? []), ...(shown ? [shown] : [])])].map((y) => ({ value: y, label: `${y}年度` }))}
        />
        <RefSelect module="unit" value={unitId} onChange={(v) => setUnitId(typeof v === 'number' ? v : undefined)} placeholder="全部单位" style={{ width: 240 }} />
        <Button icon={<DownloadOutlined />} onClick={() => void download('/api/cadre/performance/export', { unitId, year: shown }, `${shown}年度干部绩效分析.xlsx`)}>
          导出统计数据
        </Button>
      </Space>
      {analysis.isLoading ? (
        <Spin />
      ) : !a ? (
        <Empty />
      ) : (
        <Row gutter={[16, 16]}>
          <Col xs={24} md={12} xl={8}>
            <Card size="small" title={`${a.year}年度考核结果`} className="analysis-card" data-dimension="result">
              <Statistic title="参加考核" value={a.total} suffix="人" />
              <Suspense fallback={<div style={{ height: 300 }} />}>
                <CategoryChart categories={a.results} onPick={(s) => pick({ result: s.label, title: `考核结果：${s.label}` })} />
              </Suspense>
            </Card>
          </Col>
          {a.dimensions.map((d) => (
            <Col key={d.key} xs={24} xl={d.key === 'unit' ? 16 : 12}>
              <Card size="small" title={`按${d.title}`} className="analysis-card" data-dimension={d.key}>
                <Table
                  size="small"
                  rowKey="value"
                  pagination={d.rows.length > 10 ? { pageSize: 10, size: 'small' } : false}
                  dataSource={d.rows}
                  columns={[
                    { title: d.title, dataIndex: 'label', ellipsis: true },
                    {
                      title: '人数',
                      dataIndex: 'count',
                      width: 70,
                      render: (n: number, r) => <a onClick={() => pick({ dimension: d.key, value: r.value, title: `${d.title}：${r.label}` })}>{n}</a>,
                    },
                    ...ASSESSMENT_RESULTS.map((res) => ({
                      title: res,
                      key: res,
                      width: 80,
                      render: (_: unknown, r: (typeof d.rows)[number]) =>
                        r.counts[res] ? <a onClick={() => pick({ dimension: d.key, value: r.value, result: res, title: `${d.title}：${r.label}，${res}` })}>{r.counts[res]}</a> : 0,
                    })),
                    { title: '优秀率', dataIndex: 'excellentShare', width: 80, render: (v: number) => `${v}%` },
                  ]}
                />
              </Card>
            </Col>
          ))}
        </Row>
      )}
      <Drawer open={!!picked} width={760} title={picked ? `${shown}年度 ${picked.title}` : ''} onClose={() => setPicked(undefined)} mask={{ closable: false }} keyboard={false}>
        <Table<CadreRow>
          rowKey="id"
          size="small"
          className="cadre-slice-list"
          loading={cadres.isLoading}
          dataSource={cadres.data?.content}
          pagination={{ current: page + 1, pageSize: 10, total: cadres.data?.totalElements, onChange: (p) => setPage(p - 1), showTotal: (t) => `共 ${t} 人` }}
          columns={[...cadreColumns, { title: '考核结果', dataIndex: 'result' }]}
        />
      </Drawer>
    </div>
  );
}
