/** The branch secretary's screens (record a meeting, approvals, the branch's members and their dues), loaded when first opened. */
import { createElement } from 'react';
import type { MobileScreen } from '../../screen';
import { holds } from '../../screen';
import { lazyScreen } from './lazy';

const RecordMeeting = lazyScreen(() => import('./RecordMeeting'));
const ApprovalList = lazyScreen<{ go: (path: string) => void }>(async () => ({ default: (await import('./Approvals')).ApprovalList }));
const ApprovalRecord = lazyScreen<{ module: string; id: string; setTitle: (title: string) => void }>(async () => ({ default: (await import('./Approvals')).ApprovalRecord }));
const BranchMembers = lazyScreen(() => import('./BranchMembers'));

export const branchScreens: MobileScreen[] = [
  { path: 'approvals', title: '待审批', entry: { place: 'home', label: '待审批', order: 10 }, render: ({ go }) => createElement(ApprovalList, { go }) },
  { path: 'approvals/:module/:id', title: '审批', render: ({ params, setTitle }) => createElement(ApprovalRecord, { module: params.module, id: params.id, setTitle, key: `${params.module}/${params.id}` }) },
  { path: 'meetings/new', title: '记录会议', entry: { place: 'home', label: '记录会议', order: 20 }, allowed: holds('meeting:add'), render: ({ user }) => createElement(RecordMeeting, { user }) },
  { path: 'branch-members', title: '支部党员', entry: { place: 'home', label: '支部党员', order: 30 }, allowed: holds('dues-onsite:list'), render: () => createElement(BranchMembers) },
];
