/** 我的: who I am, the screens offered under 我的 (my dues, ...), the full site and logging out. */
import type { PublicUser } from '../../../shared/session-user';
import { get } from '../api';
import { removeToken } from '../../core/auth/token';
import { entriesOf } from '.';

export function Me({ user, go }: { user: PublicUser; go: (screen: string) => void }) {
  const logout = async () => {
    await get('/auth/logout').catch(() => undefined);
    removeToken();
    window.location.assign('/web/m/login');
  };
  return (
    <>
      <div className="m-card m-me">
        <div className="m-avatar" aria-hidden>{user.nickName.slice(0, 1)}</div>
        <div>
          <div className="m-item-title">{user.nickName}</div>
          <div className="m-item-meta">{user.username}{user.phone ? ` · ${user.phone}` : ''}</div>
        </div>
      </div>
      <nav className="m-menu" aria-label="我的">
        {entriesOf('me', user).map((s) => (
          <button key={s.path} type="button" className="m-menu-item" onClick={() => go(s.path)}>
            {s.entry!.label}
          </button>
        ))}
        <a className="m-menu-item" href="/web/">
          访问电脑版
        </a>
        <button type="button" className="m-menu-item" onClick={() => void logout()}>
          退出登录
        </button>
      </nav>
    </>
  );
}
