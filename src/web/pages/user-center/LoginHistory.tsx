import { Table, Tag } from 'antd';
import { parseTime } from '../../../shared/format';
import { usePagedQuery } from '../../core/usePagedQuery';
import { loginHistory, type LoginRecord } from './api';

const METHOD_LABELS: Record<string, string> = { password: '账号密码', sms: '短信验证码', sso: '单点登录' };

/** 登录记录: the user's own sign-ins, successful or not, newest first (`GET /api/users/loginHistory`). */
export function LoginHistory() {
  const { query, rows, pagination } = usePagedQuery('login-history', null, (page, size) => loginHistory(page, size));

  return (
    <Table<LoginRecord>
      rowKey="id"
      size="small"
      loading={query.isFetching}
      dataSource={rows}
      pagination={pagination}
      columns={[
        { title: '登录时间', dataIndex: 'at', width: 170, render: (at: string) => parseTime(at) },
        { title: '结果', dataIndex: 'success', width: 80, render: (ok: boolean) => (ok ? <Tag color="success">成功</Tag> : <Tag color="error">失败</Tag>) },
        { title: '方式', dataIndex: 'method', width: 110, render: (m: string | null) => (m ? (METHOD_LABELS[m] ?? m) : '账号密码') },
        { title: 'IP地址', dataIndex: 'ip', width: 140, render: (ip: string | null) => ip ?? '-' },
        { title: '浏览器', dataIndex: 'userAgent', ellipsis: true, render: (ua: string | null) => ua ?? '-' },
      ]}
    />
  );
}
