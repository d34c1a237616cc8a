import { Link, matchPath, useLocation } from 'react-router-dom';
import './pschool.css';

const LINKS = [
  { to: '/pschool', title: '学习中心', match: (p: string) => p === '/pschool' || /^\/pschool\/[^/]+$/.test(p) },
  { to: '/pschool/party/center', title: '培训中心' },
  { to: '/pschool/exam/center', title: '在线考试' },
  { to: '/pschool/home/page', title: '个人主页' },
];

/** The learner pages' own navigation: a row of tabs that scrolls sideways on a phone. */
export function PschoolNav() {
  const { pathname } = useLocation();
  return (
    <nav className="ps-nav" aria-label="党校导航">
      {LINKS.map((l) => (
        <Link key={l.to} to={l.to} className={(l.match ? l.match(pathname) : pathname === l.to) ? 'active' : undefined}>
          {l.title}
        </Link>
      ))}
    </nav>
  );
}

/** Seconds as m:ss or h:mm:ss. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** The page that studies a node: the player for a video, the reader for a document. */
export const nodeLink = (n: { id: number; kind: string }) => (n.kind === 'video' ? `/pschool/video/view?nodeId=${n.id}` : `/pschool/doc/view?nodeId=${n.id}`);

/**
 * A parameter of a constant layout route (`/pschool/:navigation`). The layout renders these pages itself
 * (resolve-page), outside a <Route> of their pattern, so `useParams` does not see it: match the path here.
 */
export function usePathParam(pattern: string, name: string): string | undefined {
  const { pathname } = useLocation();
  return matchPath({ path: pattern, end: true }, pathname)?.params[name] ?? undefined;
}
