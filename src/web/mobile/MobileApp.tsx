/**
 * The mobile terminal's layout (issue 31): a title bar, the screen, a bottom tab bar — no admin chrome. Screens
 * are paths under /web/m/ (history API, so the back button works), declared in screens/ (see screen.ts); a tab or
 * an entry shows only where the user may open its screen.
 */
import { useEffect, useState, type ReactNode } from 'react';
import type { PublicUser } from '../../shared/session-user';
import { get } from './api';
import { resolveScreen } from './screen';
import { screens } from './screens';
import { userFromPage } from './session';
import MobileLogin, { afterLogin } from './login/MobileLogin';

const BASE = '/web/m/';
const pathNow = () => window.location.pathname.slice(BASE.length).replace(/\/$/, '');

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
  const [path, setPath] = useState(pathNow);
  const [user, setUser] = useState<PublicUser | null>(userFromPage);
  const [error, setError] = useState('');
  // A screen's own title for its path (ScreenContext.setTitle); another path shows its screen's declared title.
  const [titled, setTitled] = useState<{ path: string; title: string } | null>(null);
  const online = useOnline();
  useEffect(() => {
    const back = () => setPath(pathNow());
    window.addEventListener('popstate', back);
    return () => window.removeEventListener('popstate', back);
  }, []);
  const atLogin = path === 'login';
  useEffect(() => {
    if (online && !user && !atLogin) get<PublicUser>('/auth/info').then(setUser, (e: Error) => setError(e.message));
  }, [online, user, atLogin]);
  const go = (next: string) => {
    window.history.pushState(null, '', BASE + next);
    setPath(next);
    window.scrollTo(0, 0);
  };
  // The login form has no bars; afterwards the screen asked for opens (its `redirect`).
  if (atLogin) return <MobileLogin onLogin={(u) => { setUser(u); window.history.replaceState(null, '', BASE + afterLogin(window.location.search)); setPath(pathNow()); }} />;
  const { screen, params } = resolveScreen(screens, path, user);
  const tabs = screens.filter((s) => s.tab && (!user || !s.allowed || s.allowed(user))).sort((a, b) => a.tab!.order - b.tab!.order);
  // A screen that is not a tab keeps the tab it was opened under lit: 首页 for its tiles, 我的 by default.
  const tab = screen.tab ? screen.path : screen.entry?.place === 'home' ? '' : 'me';

  let body: ReactNode;
  if (!online) body = <p className="m-offline-body">离线：网络恢复后内容会自动更新</p>;
  else if (!user) body = <p className="m-note">{error || '加载中…'}</p>;
  else body = screen.render({ user, go, params, setTitle: (title) => setTitled((t) => (t?.path === path && t.title === title ? t : { path, title })) });

  return (
    <div className="m-shell" data-live="">
      <header className="m-bar">
        {!screen.tab && (
          <button type="button" className="m-back" aria-label="返回" onClick={() => window.history.back()}>
            ‹
          </button>
        )}
        <h1>{titled?.path === path ? titled.title : screen.title}</h1>
        <a className="m-desktop" href="/web/">电脑版</a>
      </header>
      {!online && (
        <div className="m-offline" role="status">
          离线
        </div>
      )}
      <main className="m-main">{body}</main>
      <nav className="m-tabs" aria-label="底部导航">
        {tabs.map((t) => (
          <button key={t.path} type="button" className={tab === t.path ? 'm-tab m-tab-on' : 'm-tab'} aria-current={tab === t.path ? 'page' : undefined} onClick={() => go(t.path)}>
            <span className="m-tab-icon" aria-hidden>{t.tab!.icon}</span>
            {t.tab!.label}
          </button>
        ))}
      </nav>
    </div>
  );
}
