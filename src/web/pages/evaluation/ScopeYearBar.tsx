import { InputNumber, Space } from 'antd';
import { OrgTreeSelect } from '../member/OrgTreeSelect';

/** The organisation and year the evaluation panels (帮扶, 谈心谈话, 积分) count over. */
export function ScopeYearBar({ orgLabel = '范围', orgId, onOrg, year, onYear }: {
  orgLabel?: string;
  orgId: number | undefined;
  onOrg: (orgId: number | undefined) => void;
  year: number;
  onYear: (year: number) => void;
}) {
  return (
    <Space wrap style={{ marginBottom: 12 }}>
      <span>{orgLabel}</span>
      <OrgTreeSelect value={orgId} onChange={onOrg} width={280} />
      <span>年度</span>
      <InputNumber value={year} min={2000} max={2100} onChange={(v) => v && onYear(v)} aria-label="年度" />
    </Space>
  );
}
