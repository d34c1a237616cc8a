/**
 * The mobile terminal's layout (issue 31): a title bar, the screen, a bottom tab bar — no admin chrome. Screens
 * are paths under /web/m/ (history API, so the back button works); a tab shows only where its screen exists.
 */
import { useEffect, useState, type ReactNode } from 'react';
import type { PublicUser } from '../../shared/session-user';
import { get } from './api';
import { Dues } from './screens/Dues';
import { Home } from './screens/Home';
import { Me } from './screens/Me';
import { Messages } from './screens/Messages';

const BASE = '/web/m/';
const TABS = [
  { screen: '', label: '首页', icon: '⌂' },
  { screen: 'messages', label: '消息', icon: '✉' },
  { screen: 'me', label: '我的', icon: '☺' },
];
const TITLES: Record<string, string> = { '': '党建', messages: '消息', me: '我的', dues: '我的党费' };

const screenOf = () => {
  const s = window.location.pathname.slice(BASE.length).replace(/\/$/, '');
  return s in TITLES ? s : '';
};

function useOnline() {
  const [online, setOnline] = useState(navigator.onLine);
  useEffect(() => {
    const on = () => setOnline(true);
    const off = () => setOnline(false);
    window.addEventListener('online', on);
    window.addEventListener('offline', off);
    return () => {
      window.removeEventListener('online', on);
      window.removeEventListener('offline', off);
    };
  }, []);
  return online;
}

export function MobileApp() {
  const [screen, setScreen] = useState(screenOf);
  const [user, setUser] = useState<PublicUser | null>(null);
  const [error, setError] = useState('');
  const online = useOnline();
  useEffect(() => {
    const back = () => setScreen(screenOf());
    window.addEventListener('popstate', back);
    return () => window.removeEventListener('popstate', back);
  }, []);
  useEffect(() => {
    if (online && !user) get<PublicUser>('/auth/info').then(setUser, (e: Error) => setError(e.message));
  }, [online, user]);
  const go = (next: string) => {
    window.history.pushState(null, '', BASE + next);
    setScreen(next);
    window.scrollTo(0, 0);
  };
  const hasDues = !!user && (user.isSuper || user.roles.includes('dues-my:list'));
  const tab = TABS.some((t) => t.screen === screen) ? screen : 'me';

  let body: ReactNode;
  if (!online) body = <p className="m-offline-body">离线：网络恢复后内容会自动更新</p>;
  else if (!user) body = <p className="m-note">{error || '加载中…'}</p>;
  else if (screen === 'messages') body = <Messages />;
  else if (screen === 'me') body = <Me user={user} go={go} hasDues={hasDues} />;
  else if (screen === 'dues' && hasDues) body = <Dues />;
  else body = <Home name={user.nickName} />;

  return (
    <div className="m-shell">
      <header className="m-bar">
        {!TABS.some((t) => t.screen === screen) && (
          <button type="button" className="m-back" aria-label="返回" onClick={() => window.history.back()}>
            ‹
          </button>
        )}
        <h1>{TITLES[screen]}</h1>
        <a className="m-desktop" href="/web/">电脑版</a>
      </header>
      {!online && (
        <div className="m-offline" role="status">
          离线
        </div>
      )}
      <main className="m-main">{body}</main>
      <nav className="m-tabs" aria-label="底部导航">
        {TABS.map((t) => (
          <button key={t.screen} type="button" className={tab === t.screen ? 'm-tab m-tab-on' : 'm-tab'} aria-current={tab === t.screen ? 'page' : undefined} onClick={() => go(t.screen)}>
            <span className="m-tab-icon" aria-hidden>{t.icon}</span>
            {t.label}
          </button>
        ))}
      </nav>
    </div>
  );
}
