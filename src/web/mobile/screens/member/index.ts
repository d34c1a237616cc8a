/**
 * The member's and the applicant's screens (issue 31): my record with its change request, my organisation,
 * study, meetings with the QR check-in, notices, an applicant's development. Each loads on demand (its own
 * chunk), so the shell's first load stays small.
 */
import { createElement, lazy, Suspense, type ComponentType } from 'react';
import { holds, type MobileScreen, type ScreenContext } from '../../screen';

/** A screen component loaded when first opened. */
function lazyScreen(load: () => Promise<{ default: ComponentType<ScreenContext> }>): MobileScreen['render'] {
  const Screen = lazy(load);
  return (ctx) => createElement(Suspense, { fallback: createElement('p', { className: 'm-note' }, '加载中…') }, createElement(Screen, ctx));
}

const studies = holds('pschool:study');

export const memberScreens: MobileScreen[] = [
  { path: 'study', title: '学习', tab: { label: '学习', icon: '✎', order: 10 }, allowed: studies, render: lazyScreen(() => import('./Study')) },
  { path: 'study/course/:id', title: '课程', allowed: studies, render: lazyScreen(() => import('./Course')) },
  { path: 'study/node/:id', title: '学习', allowed: studies, render: lazyScreen(() => import('./StudyNode')) },
  { path: 'meetings', title: '会议', tab: { label: '会议', icon: '☷', order: 20 }, render: lazyScreen(() => import('./Meetings')) },
  { path: 'meetings/:id', title: '会议', render: lazyScreen(() => import('./MeetingDetail')) },
  { path: 'checkin/:token', title: '会议签到', render: lazyScreen(() => import('./Checkin')) },
  { path: 'notices', title: '通知', entry: { place: 'home', label: '通知', order: 10 }, render: lazyScreen(() => import('./Notices')) },
  { path: 'record', title: '我的档案', entry: { place: 'me', label: '我的档案', order: 10 }, render: lazyScreen(() => import('./Record')) },
  { path: 'org', title: '我的组织', entry: { place: 'me', label: '我的组织', order: 20 }, render: lazyScreen(() => import('./Org')) },
  { path: 'development', title: '我的发展', entry: { place: 'me', label: '我的发展', order: 25 }, render: lazyScreen(() => import('./Development')) },
];
