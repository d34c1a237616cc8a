import { Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { timeCell } from '../shared/cells';
import { CrudTable } from '../shared/CrudTable';
import { getPage } from '../shared/list';

interface OutboxRow {
  id: number;
  channel: string;
  target: string;
  content: string;
  purpose: string;
  createTime: string;
}

const CHANNELS: Record<string, { label: string; color: string }> = { sms: { label: '短信', color: 'green' }, email: { label: '邮件', color: 'blue' } };
/** What the server's sender wrote a message for (the `purpose` column). */
const PURPOSES: Record<string, string> = {
  login: '登录验证码',
  register: '注册验证码',
  reset: '重置密码验证码',
  email: '修改邮箱验证码',
  account: '账号开通通知',
};

const columns: ColumnsType<OutboxRow> = [
  { title: '发送时间', dataIndex: 'createTime', key: 'createTime', width: 170, render: timeCell },
  { title: '渠道', dataIndex: 'channel', width: 80, render: (v: string) => <Tag color={CHANNELS[v]?.color}>{CHANNELS[v]?.label ?? v}</Tag> },
  { title: '接收方', dataIndex: 'target', width: 180 },
  { title: '用途', dataIndex: 'purpose', width: 110, render: (v: string) => PURPOSES[v] ?? v ?? '-' },
  { title: '内容', dataIndex: 'content', render: (v: string) => <span className="outbox-content">{v}</span> },
];

/** Messages the built-in sender wrote instead of sending (spec: the flows work with no SMS provider). */
export default function SmsOutboxPage() {
  return (
    <div className="system-page">
      <CrudTable<OutboxRow, object>
        queryKey={['outbox']}
        load={getPage<OutboxRow>('/api/outbox')}
        columns={columns}
        search={{ placeholder: '手机号码或邮箱', param: 'target' }}
      />
    </div>
  );
}
