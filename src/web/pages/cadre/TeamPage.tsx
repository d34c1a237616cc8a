/**
 * A leadership team (route /cadre/leadership/team/:id, opened from 领导班子's detail): its members (the
 * cadres holding a current full-time post in the unit), its structure (age bands, gender, education,
 * ethnicity, party membership, rank) and the unit's staffing plan against the posts held.
 */
import { useQuery } from '@tanstack/react-query';
import { Card, Descriptions, Empty, Progress, Spin, Table, Tag } from 'antd';
import { useLocation } from 'react-router-dom';
import { get } from '../../core/request/request';
import { UkeyWait } from './UkeyWait';
import { useBaseRefresh } from './useBaseRefresh';
import { useUkeyGate } from './useUkeyGate';
import './cadre.css';

type Count = { label: string; count: number };
interface TeamDetail {
  team: Record<string, unknown>;
  members: { cadreId: number; name: string; genderLabel: string; age: number | null; educationLabel: string; postTitle: string | null; rankLabel: string; startDate: string | null; probationEnd: string | null }[];
  structure: Record<'ageBands' | 'gender' | 'education' | 'ethnicity' | 'party' | 'rank', Count[]> & { averageAge: number | null };
  plan: { rank: string; rankLabel: string; approved: number; actual: number }[];
}

const STRUCTURE: [keyof Omit<TeamDetail['structure'], 'averageAge'>, string][] = [
  ['ageBands', '年龄结构'], ['gender', '性别'], ['education', '学历'], ['ethnicity', '民族'], ['party', '党派'], ['rank', '职级'],
];

export default function TeamPage() {
  const id = /\/cadre\/leadership\/team\/(\d+)/.exec(useLocation().pathname)?.[1];
  const gate = useUkeyGate();
  useBaseRefresh([['cadre-team']]);
  const detail = useQuery({ queryKey: ['cadre-team', id], queryFn: () => get<TeamDetail>(`/api/cadre/teams/${id}`), enabled: !!id && gate.ready, retry: false });
  if (gate.waiting) return <UkeyWait />;
  if (detail.isLoading || !gate.ready) return <Spin style={{ margin: 48 }} />;
  if (!detail.data) return <Empty description="领导班子不存在或不在您的管理范围内" style={{ margin: 48 }} />;
  const { team, members, structure, plan } = detail.data;
  const total = members.length;
  return (
    <div className="cadre-profile">
      <Card title={String(team.name)} className="cadre-section">
        <Descriptions
          size="small"
          column={{ xs: 1, sm: 2, lg: 4 }}
          items={[
            { key: 'unit', label: '单位', children: String(team.unitIdName ?? '') },
            { key: 'type', label: '班子类型', children: String(team.teamTypeLabel ?? '') },
            { key: 'term', label: '本届任期', children: team.termStart ? `${String(team.termStart)} 至 ${String(team.termEnd ?? '')}` : '—' },
            { key: 'size', label: '现有成员 / 班子职数', children: `${total} / ${String(team.planSize ?? 0)}` },
            { key: 'age', label: '平均年龄', children: structure.averageAge ?? '—' },
          ]}
        />
      </Card>
      <Card title="班子成员" size="small" className="cadre-section">
        <Table
          size="small"
          rowKey="cadreId"
          pagination={false}
          dataSource={members}
          locale={{ emptyText: '该单位暂无在任干部' }}
          columns={[
            { title: '姓名', dataIndex: 'name' },
            { title: '职务', dataIndex: 'postTitle' },
            { title: '职级', dataIndex: 'rankLabel' },
            { title: '性别', dataIndex: 'genderLabel' },
            { title: '年龄', dataIndex: 'age' },
            { title: '学历', dataIndex: 'educationLabel' },
            { title: '任职日期', dataIndex: 'startDate' },
            { title: '试用期', dataIndex: 'probationEnd', render: (v: string | null) => (v ? <Tag color="orange">至{v}</Tag> : null) },
          ]}
        />
      </Card>
      <Card title="班子结构" size="small" className="cadre-section">
        <div className="cadre-team-grid">
          {STRUCTURE.map(([key, title]) => (
            <div key={key}>
              <h4>{title}</h4>
              {structure[key].map((c) => (
                <div key={c.label}>
                  <span>{c.label}：{c.count}人</span>
                  <Progress percent={total ? Math.round((c.count / total) * 100) : 0} size="small" />
                </div>
              ))}
            </div>
          ))}
        </div>
      </Card>
      <Card title="职数配备（编制管理）" size="small" className="cadre-section">
        <Table
          size="small"
          rowKey="rank"
          pagination={false}
          dataSource={plan}
          locale={{ emptyText: '该单位尚未核定职数' }}
          columns={[
            { title: '职级', dataIndex: 'rankLabel' },
            { title: '核定职数', dataIndex: 'approved' },
            { title: '实配', dataIndex: 'actual' },
            { title: '配备情况', key: 's', render: (_: unknown, p: TeamDetail['plan'][number]) => (p.actual > p.approved ? <Tag color="red">超编{p.actual - p.approved}</Tag> : p.actual < p.approved ? <Tag color="blue">空缺{p.approved - p.actual}</Tag> : <Tag color="green">满编</Tag>) },
          ]}
        />
      </Card>
    </div>
  );
}
