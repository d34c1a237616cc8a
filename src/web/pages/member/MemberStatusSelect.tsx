import { Select } from 'antd';
import { ANY_MEMBER_STATUS } from '../../../shared/party-members';
import { useDict } from '../../core/dicts';

/**
 * 党籍状态 as a visible filter of the member pages: which member records count as an organisation's
 * members (src/shared/party-members.ts: 正常 by default); 全部 shows every record.
 */
export function MemberStatusSelect({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const dict = useDict('DJ_DY_DJZTXX');
  return (
    <Select
      className="member-status-select"
      aria-label="党籍状态"
      prefix="党籍状态"
      style={{ width: 190 }}
      value={value}
      onChange={onChange}
      options={[...dict.options, { value: ANY_MEMBER_STATUS, label: '全部' }]}
    />
  );
}
