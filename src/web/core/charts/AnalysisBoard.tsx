/**
 * The body of every analysis page that counts people by dimension (党员数据分析, 干部队伍结构分析): the total,
 * then one card per dimension with its chart (CategoryChart, loaded lazily) and its slices as links; a
 * click on a slice or a link picks it (the page lists the people of that slice).
 */
import { Button, Card, Col, Row, Statistic } from 'antd';
import { lazy, Suspense } from 'react';
import type { Analysis, Slice } from '../../../shared/member-analysis';

const CategoryChart = lazy(() => import('./CategoryChart'));

export interface AnalysisBoardProps {
  analysis: Analysis;
  /** The total's caption (党员总数). */
  totalTitle: string;
  onPick(dimension: string, title: string, slice: Slice): void;
}

export default function AnalysisBoard({ analysis, totalTitle, onPick }: AnalysisBoardProps) {
  return (
    <>
      <Card size="small" style={{ marginBottom: 16 }}>
        <Statistic title={totalTitle} value={analysis.total} suffix="人" />
      </Card>
      <Row gutter={[16, 16]}>
        {analysis.dimensions.map((d) => (
          <Col key={d.key} xs={24} md={12} xl={8}>
            <Card size="small" title={`按${d.title}`} className="analysis-card" data-dimension={d.key}>
              <Suspense fallback={<div style={{ height: 300 }} />}>
                <CategoryChart categories={d.slices} onPick={(slice) => onPick(d.key, d.title, slice as Slice)} />
              </Suspense>
              <div className="analysis-slices">
                {d.slices.map((s) => (
                  <Button key={s.value} size="small" type="link" className="analysis-slice" onClick={() => onPick(d.key, d.title, s)}>
                    {s.label} {s.count}人
                  </Button>
                ))}
              </div>
            </Card>
          </Col>
        ))}
      </Row>
    </>
  );
}
