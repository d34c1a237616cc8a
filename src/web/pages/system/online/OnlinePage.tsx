import { LogoutOutlined } from '@ant-design/icons';
import { Button, Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { Permission } from '../../../core/Permission';
import { del } from '../../../core/request/request';
import { describeUserAgent } from '../../../../shared/user-agent';
import { timeCell } from '../shared/cells';
import { CrudTable, type CrudApi } from '../shared/CrudTable';
import { getPage } from '../shared/list';

interface SessionRow {
  id: number;
  username: string;
  nickName: string;
  ip: string | null;
  userAgent: string | null;
  /** Spec §9: PC 1, MOBILE 2. */
  terminal: number;
  loginTime: string;
  lastSeen: string;
  /** The session of the viewer: it cannot be ended from here. */
  current: boolean;
}

const columns: ColumnsType<SessionRow> = [
  {
    title: '用户名',
    dataIndex: 'username',
    render: (v: string, s) =>
      s.current ? (
        <>
          {v} <Tag color="blue">当前会话</Tag>
        </>
      ) : (
        v
      ),
  },
  { title: '姓名', dataIndex: 'nickName' },
  { title: 'IP地址', dataIndex: 'ip', render: (v) => v || '-' },
  // Browser and system told simply; the full user-agent string on hover.
  { title: '终端', dataIndex: 'terminal', render: (t: number) => (t === 2 ? '移动端' : '电脑端') },
  { title: '浏览器与系统', dataIndex: 'userAgent', render: (ua: string | null) => (ua ? <Tooltip title={ua}>{describeUserAgent(ua)}</Tooltip> : '-') },
  { title: '登录时间', dataIndex: 'loginTime', key: 'loginTime', sorter: true, render: timeCell },
  { title: '最后活动', dataIndex: 'lastSeen', key: 'lastSeen', sorter: true, render: timeCell },
];

type Api = CrudApi<SessionRow, object>;

const kick = (api: Api, sessions: SessionRow[]) =>
  api.confirmRun({
    title: '强制退出',
    content: sessions.length === 1 ? `确定强制退出用户“${sessions[0].username}”的会话吗？` : `确定强制退出选中的 ${sessions.length} 个会话吗？`,
    okText: '强退',
    danger: true,
    run: () =>
      del(
        '/api/online',
        sessions.map((s) => s.id),
      ),
  });

/** Who is signed in now; an administrator ends a session (never the own one). */
export default function OnlinePage() {
  return (
    <div className="system-page">
      <CrudTable<SessionRow, object>
        queryKey={['online']}
        load={getPage<SessionRow>('/api/online')}
        columns={columns}
        search={{ placeholder: '用户名/姓名/IP地址' }}
        selectable={(s) => !s.current}
        actionsWidth={90}
        toolbar={(api) => (
          <Permission roles={['online:kick']}>
            <Button danger icon={<LogoutOutlined />} disabled={!api.selected.length} onClick={() => kick(api, api.selected)}>
              强退
            </Button>
          </Permission>
        )}
        rowActionsPermission={['online:kick']}
        rowActions={(session, api) => (
          <Tooltip title={session.current ? '不能强退自己的当前会话' : undefined}>
            <Button type="link" size="small" danger disabled={session.current} onClick={() => kick(api, [session])}>
              强退
            </Button>
          </Tooltip>
        )}
      />
    </div>
  );
}
