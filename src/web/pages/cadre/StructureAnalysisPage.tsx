import { DownloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Drawer, Empty, Space, Spin, Table } from 'antd';
import { useState } from 'react';
import AnalysisBoard from '../../core/charts/AnalysisBoard';
import { download } from '../../core/request/download';
import { get } from '../../core/request/request';
import { RefSelect } from '../../renderer/pickers';
import type { Analysis, Slice } from '../../../shared/member-analysis';
import type { Page } from '../../../shared/paging';

export interface CadreRow {
  id: number;
  name: string;
  genderLabel?: string;
  age?: number;
  unitName?: string;
  postLabel?: string;
  rankLabel?: string;
  result?: string;
}

export const cadreColumns = [
  { title: '姓名', dataIndex: 'name' },
  { title: '性别', dataIndex: 'genderLabel', width: 60 },
  { title: '年龄', dataIndex: 'age', width: 60 },
  { title: '单位', dataIndex: 'unitName', ellipsis: true },
  { title: '职务', dataIndex: 'postLabel', ellipsis: true },
  { title: '职级', dataIndex: 'rankLabel' },
];

/** 干部队伍结构分析: the current cadre team by dimension; a slice lists its cadres; the figures export to .xlsx. */
export default function StructureAnalysisPage() {
  const [unitId, setUnitId] = useState<number>();
  const [picked, setPicked] = useState<{ dimension: string; title: string; slice: Slice }>();
  const [page, setPage] = useState(0);
  const analysis = useQuery({ queryKey: ['cadre-structure', unitId], queryFn: () => get<Analysis>('/api/cadre/structure', { unitId }) });
  const cadres = useQuery({
    queryKey: ['cadre-structure-list', unitId, picked?.dimension, picked?.slice.value, page],
    queryFn: () => get<Page<CadreRow>>('/api/cadre/structure/cadres', { unitId, dimension: picked!.dimension, value: picked!.slice.value, page, size: 10 }),
    enabled: !!picked,
  });
  return (
    <div className="page-container">
      <Space wrap style={{ marginBottom: 16 }}>
        <RefSelect module="unit" value={unitId} onChange={(v) => setUnitId(typeof v === 'number' ? v : undefined)} placeholder="全部单位" style={{ width: 240 }} />
        <Button icon={<DownloadOutlined />} onClick={() => void download('/api/cadre/structure/export', { unitId }, '干部队伍结构分析.xlsx')}>
          导出统计数据
        </Button>
      </Space>
      {analysis.isLoading ? (
        <Spin />
      ) : !analysis.data ? (
        <Empty />
      ) : (
        <AnalysisBoard
          analysis={analysis.data}
          totalTitle="干部总数（在任、试用期）"
          onPick={(dimension, title, slice) => {
            setPage(0);
            setPicked({ dimension, title, slice });
          }}
        />
      )}
      <Drawer open={!!picked} width={760} title={picked ? `${picked.title}：${picked.slice.label}（${picked.slice.count}人）` : ''} onClose={() => setPicked(undefined)} mask={{ closable: false }} keyboard={false}>
        <Table<CadreRow>
          rowKey="id"
          size="small"
          className="cadre-slice-list"
          loading={cadres.isLoading}
          dataSource={cadres.data?.content}
          pagination={{ current: page + 1, pageSize: 10, total: cadres.data?.totalElements, onChange: (p) => setPage(p - 1), showTotal: (t) => `共 ${t} 人` }}
          columns={cadreColumns}
        />
      </Drawer>
    </div>
  );
}
