import { DownloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Drawer, Empty, Space, Spin, Table } from 'antd';
import { useMemo, useState } from 'react';
import AnalysisBoard from '../../core/charts/AnalysisBoard';
import { download } from '../../core/request/download';
import { get, post } from '../../core/request/request';
import { ACTIVE_MEMBER_STATUS, memberStatusOf, membersFilter } from '../../../shared/party-members';
import { MemberStatusSelect } from './MemberStatusSelect';
import { OrgTreeSelect } from './OrgTreeSelect';
import { sliceFilter, type Analysis, type Slice } from './analysis-filters';
import type { Page } from '../../../shared/paging';

interface MemberRow {
  id: number;
  name: string;
  genderLabel?: string;
  age?: number;
  categoryLabel?: string;
  memberTypeLabel?: string;
  orgIdName?: string;
}

/** 党员数据分析: charts by dimension (loaded lazily); a click on a slice lists those members. */
export default function MemberAnalysisPage() {
  const [orgId, setOrgId] = useState<number>();
  const [status, setStatus] = useState(ACTIVE_MEMBER_STATUS);
  const [picked, setPicked] = useState<{ dimension: string; title: string; slice: Slice }>();
  const [page, setPage] = useState(0);
  const pick = (dimension: string, title: string, slice: Slice) => {
    setPage(0);
    setPicked({ dimension, title, slice });
  };
  const analysis = useQuery({ queryKey: ['member-analysis', orgId, status], queryFn: () => get<Analysis>('/api/member/analysis', { orgId, partyStatus: status }) });
  // The slice's members among the members analysed (the same definition: src/shared/party-members.ts).
  const filter = useMemo(
    () => (picked ? { ...membersFilter(orgId, memberStatusOf(status)), ...sliceFilter(picked.dimension, picked.slice.value) } : undefined),
    [picked, orgId, status],
  );
  const members = useQuery({
    queryKey: ['member-analysis-list', filter, page],
    queryFn: () => post<Page<MemberRow>>(`/api/m/member/list?page=${page}&size=10`, filter),
    enabled: !!filter,
  });

  return (
    <div className="page-container">
      <Space wrap style={{ marginBottom: 16 }}>
        <OrgTreeSelect value={orgId} onChange={setOrgId} />
        <MemberStatusSelect value={status} onChange={setStatus} />
        <Button icon={<DownloadOutlined />} onClick={() => void download('/api/member/analysis/export', { orgId, partyStatus: status }, '党员数据分析.xlsx')}>
          导出统计数据
        </Button>
      </Space>
      {analysis.isLoading ? (
        <Spin />
      ) : !analysis.data ? (
        <Empty />
      ) : (
        <AnalysisBoard analysis={analysis.data} totalTitle="党员总数" onPick={pick} />
      )}
      <Drawer open={!!picked} width={720} title={picked ? `${picked.title}：${picked.slice.label}（${picked.slice.count}人）` : ''} onClose={() => setPicked(undefined)} mask={{ closable: false }} keyboard={false}>
        <Table<MemberRow>
          rowKey="id"
          size="small"
          loading={members.isLoading}
          dataSource={members.data?.content}
          pagination={{ current: page + 1, pageSize: 10, total: members.data?.totalElements, onChange: (p) => setPage(p - 1), showTotal: (t) => `共 ${t} 人` }}
          columns={[
            { title: '姓名', dataIndex: 'name' },
            { title: '性别', dataIndex: 'genderLabel' },
            { title: '年龄', dataIndex: 'age' },
            { title: '人员类别', dataIndex: 'categoryLabel' },
            { title: '党员类型', dataIndex: 'memberTypeLabel' },
            { title: '所在党支部', dataIndex: 'orgIdName', ellipsis: true },
          ]}
        />
      </Drawer>
    </div>
  );
}
