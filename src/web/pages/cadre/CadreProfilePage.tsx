/**
 * 干部信息简表 (route /cadre/info/profile/:id): one cadre by the show type chosen (spec §9: 全部信息 by
 * default, or the short views 基本信息, 职务信息, 简历), remembered for the next cadre opened.
 */
import { PrinterOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Descriptions, Empty, Segmented, Space, Spin, Table } from 'antd';
import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { CADRE_SECTIONS, CADRE_SHOW_TYPES, type CadreShowType } from '../../../shared/cadre/show-types';
import { get } from '../../core/request/request';
import { useCadreStore } from '../../core/stores/options';
import { useModuleMeta } from '../../renderer/api';
import { UkeyWait } from './UkeyWait';
import { useBaseRefresh } from './useBaseRefresh';
import { useUkeyGate } from './useUkeyGate';
import './cadre.css';

type Rec = Record<string, unknown>;
interface Profile {
  showType: CadreShowType;
  cadre: Rec;
  sections: Record<string, Rec[]>;
}

/** A value as the API answers it: the label or name beside a code, dates as they are. */
function shown(record: Rec, field: string): string {
  const v = record[`${field}Label`] ?? record[`${field}Name`] ?? record[field];
  if (v === null || v === undefined || v === '') return '';
  if (typeof v === 'boolean') return v ? '是' : '否';
  return String(v);
}

function Section({ module, title, rows }: { module: string; title: string; rows: Rec[] }) {
  const meta = useModuleMeta(module);
  const schema = meta.data?.schema;
  if (!schema) return null;
  const columns = (schema['x-list']?.columns ?? []).map((c) => (typeof c === 'string' ? c : c.field)).filter((f) => f !== 'cadreId');
  return (
    <Card size="small" title={title} className="cadre-section">
      <Table<Rec>
        size="small"
        rowKey={(r) => String(r.id)}
        pagination={false}
        dataSource={rows}
        locale={{ emptyText: '暂无记录' }}
        columns={columns.map((f) => ({ title: schema.properties[f]?.title ?? f, dataIndex: f, render: (_: unknown, r: Rec) => shown(r, f) }))}
      />
    </Card>
  );
}

const BASIC: [string, string][] = [
  ['name', '姓名'], ['genderLabel', '性别'], ['birthDate', '出生日期'], ['age', '年龄'], ['ethnicityLabel', '民族'], ['nativePlace', '籍贯'],
  ['politicalStatusLabel', '政治面貌'], ['joinPartyDate', '入党时间'], ['workStartDate', '参加工作时间'], ['educationLabel', '最高学历'], ['degreeLabel', '最高学位'],
  ['titleLabel', '专业技术职务'], ['unitIdName', '所在单位'], ['postTitle', '现任职务'], ['rankLabel', '职级'], ['postDate', '任现职时间'], ['categoryLabel', '干部类别'], ['tenureStatusLabel', '任职状态'],
];

export default function CadreProfilePage() {
  const id = /\/cadre\/info\/profile\/(\d+)/.exec(useLocation().pathname)?.[1];
  const { showType, setShowType, setViewing } = useCadreStore();
  const type: CadreShowType = showType in CADRE_SHOW_TYPES ? (showType as CadreShowType) : 'full';
  const gate = useUkeyGate();
  useBaseRefresh([['cadre-profile']]);
  const profile = useQuery({
    queryKey: ['cadre-profile', id, type],
    queryFn: () => get<Profile>(`/api/cadre/${id}/profile`, { showType: type }),
    enabled: !!id && gate.ready,
    retry: false,
  });
  const cadre = profile.data?.cadre;
  useEffect(() => {
    if (cadre) setViewing({ id: cadre.id as number, name: String(cadre.name) });
  }, [cadre, setViewing]);
  if (gate.waiting) return <UkeyWait />;
  if (profile.isLoading || !gate.ready) return <Spin style={{ margin: 48 }} />;
  if (!cadre) return <Empty description="干部不存在或不在您的管理范围内" style={{ margin: 48 }} />;
  return (
    <div className="cadre-profile">
      <Space className="cadre-profile-bar no-print" wrap>
        <Segmented<CadreShowType>
          value={type}
          onChange={(v) => setShowType(v)}
          options={Object.entries(CADRE_SHOW_TYPES).map(([value, t]) => ({ value: value as CadreShowType, label: t.title }))}
        />
        <Button icon={<PrinterOutlined />} onClick={() => window.print()}>
          打印
        </Button>
      </Space>
      <Card title={`${String(cadre.name)}　干部信息简表`} className="cadre-section">
        <Descriptions size="small" bordered column={{ xs: 1, sm: 2, lg: 3 }} items={BASIC.map(([k, label]) => ({ key: k, label, children: shown(cadre, k.replace(/(Label|Name)$/, '')) || '—' }))} />
      </Card>
      {CADRE_SECTIONS.filter((s) => profile.data!.sections[s.module]).map((s) => (
        <Section key={s.module} module={s.module} title={s.title} rows={profile.data!.sections[s.module]} />
      ))}
    </div>
  );
}
