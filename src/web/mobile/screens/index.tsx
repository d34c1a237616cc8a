/** Every screen of the mobile terminal: the core tabs, then each area's screens. */
import type { MobileScreen } from '../screen';
import { holds } from '../screen';
import { branchScreens } from './branch';
import { Dues } from './Dues';
import { Home } from './Home';
import { Me } from './Me';
import { memberScreens } from './member';
import { Messages } from './Messages';

const coreScreens: MobileScreen[] = [
  { path: '', title: '党建', tab: { label: '首页', icon: '⌂', order: 0 }, render: ({ user, go }) => <Home name={user.nickName} go={go} user={user} /> },
  { path: 'messages', title: '消息', tab: { label: '消息', icon: '✉', order: 50 }, render: ({ go }) => <Messages go={go} /> },
  { path: 'me', title: '我的', tab: { label: '我的', icon: '☺', order: 90 }, render: ({ user, go }) => <Me user={user} go={go} /> },
  { path: 'dues', title: '我的党费', entry: { place: 'me', label: '我的党费', order: 30 }, allowed: holds('dues-my:list'), render: () => <Dues /> },
];

export const screens: MobileScreen[] = [...coreScreens, ...memberScreens, ...branchScreens];

/** The entries of a place (我的 menu, 首页 tiles) this user may open, in order. */
export function entriesOf(place: 'me' | 'home', user: Parameters<NonNullable<MobileScreen['allowed']>>[0]): MobileScreen[] {
  return screens.filter((s) => s.entry?.place === place && (!s.allowed || s.allowed(user))).sort((a, b) => a.entry!.order - b.entry!.order);
}
