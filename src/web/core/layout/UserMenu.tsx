import { CaretDownOutlined, LogoutOutlined, MailOutlined, ScheduleOutlined, UserOutlined } from '@ant-design/icons';
import { App, Avatar, Badge, Dropdown } from 'antd';
import { useNavigate } from 'react-router-dom';
import { BADGE_MAX, badgeTotal } from '../../../shared/constants';
import { endpoints } from '../config/endpoints';
import { useCounters } from '../stores/counters';
import { usePermission } from '../stores/permission';
import { useSession } from '../stores/session';
import { useTags } from '../stores/tags';

export const LOGOUT_CONFIRM = { title: '提示', content: '确定注销并退出系统吗？' } as const;
export const MESSAGES_PATH = '/message/msginfo';

/** An avatar value is a URL or path, or the id of an uploaded file. */
function avatarSrc(avatar: string | null | undefined): string | undefined {
  if (!avatar) return undefined;
  return /^(https?:|\/|data:)/.test(avatar) ? avatar : `${endpoints.imageBaseUrl}${encodeURIComponent(avatar)}`;
}

const ItemWithBadge = ({ label, count }: { label: string; count: number }) => (
  <span className="user-menu-item">
    <span>{label}</span>
    <Badge count={count} overflowCount={BADGE_MAX} size="small" />
  </span>
);

/** The user dropdown (spec §2): personal centre, private messages and to-dos with badges, log out. */
export function UserMenu() {
  const navigate = useNavigate();
  const { modal } = App.useApp();
  const user = useSession((s) => s.user);
  const remind = useCounters((s) => s.remind.totalElements);
  const unreadPrivate = useCounters((s) => s.unread.private);
  const todo = useCounters((s) => s.todo.totalElements);

  const confirmLogout = () =>
    modal.confirm({
      ...LOGOUT_CONFIRM,
      okText: '确定',
      cancelText: '取消',
      mask: { closable: false },
      keyboard: false,
      onOk: async () => {
        await useSession.getState().logout();
        usePermission.getState().reset();
        useCounters.getState().reset();
        useTags.getState().reset();
        navigate('/login', { replace: true });
      },
    });

  const total = badgeTotal(remind, todo);
  return (
    <Dropdown
      trigger={['hover']}
      menu={{
        className: 'user-menu',
        items: [
          { key: 'center', icon: <UserOutlined />, label: '个人中心' },
          { key: 'private', icon: <MailOutlined />, label: <ItemWithBadge label="私信" count={unreadPrivate} /> },
          { key: 'todo', icon: <ScheduleOutlined />, label: <ItemWithBadge label="我的待办" count={todo} /> },
          { type: 'divider' },
          { key: 'logout', icon: <LogoutOutlined />, label: '退出登录' },
        ],
        onClick: ({ key }) => {
          if (key === 'logout') confirmLogout();
          else if (key === 'center') navigate('/user/center');
          else navigate(`${MESSAGES_PATH}?tab=${key}`);
        },
      }}
    >
      <button type="button" className="user-button" aria-label="用户菜单">
        <Badge count={total} overflowCount={BADGE_MAX} size="small" className="user-badge">
          <Avatar size={30} src={avatarSrc(user?.avatar)} icon={<UserOutlined />} />
        </Badge>
        <span className="user-name">{user?.nickName || user?.username}</span>
        <CaretDownOutlined className="user-caret" />
      </button>
    </Dropdown>
  );
}
