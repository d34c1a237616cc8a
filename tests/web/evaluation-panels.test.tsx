import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../../src/web/core/stores/session';
import AssessPlanPage from '../../src/web/pages/evaluation/AssessPlanPage';
import MemberAssistPage from '../../src/web/pages/evaluation/MemberAssistPage';
import MemberPointsPage from '../../src/web/pages/evaluation/MemberPointsPage';
import { renderWithProviders } from './renderer/support';

/** Issue 27: the panels of the endpoints that had no screen — assistance totals, a plan's results, a member's points. */

const year = new Date().getFullYear();
const server = vi.hoisted(() => ({ calls: [] as string[] }));

// The module list under each panel is the renderer's (tested on its own): here only the panel above it.
vi.mock('../../src/web/renderer/ModulePage', () => ({ default: ({ header }: { header?: ReactNode }) => <div className="module-page-stub">{header}</div> }));

vi.mock('../../src/web/core/request/request', async (original) => {
  const real = await original<typeof import('../../src/web/core/request/request')>();
  const answer = async (url: string) => {
    server.calls.push(url);
    if (url.startsWith('/api/evaluation/assist/totals?'))
      return {
        year,
        content: [
          { orgId: 1, orgName: '第一党支部', cases: 2, approved: '1500.50', paid: '500.25', paidCases: 1 },
          { orgId: 2, orgName: '第二党支部', cases: 1, approved: '0.20', paid: '0.10', paidCases: 1 },
        ],
      };
    if (url === '/api/m/assess-plan/list')
      return { content: [{ id: 5, version: 1, year, title: '党支部工作考核' }, { id: 4, version: 1, year: year - 1, title: '上年考核' }], totalElements: 2 };
    if (url === '/api/evaluation/assess/5/results')
      return { plan: { id: 5, title: '党支部工作考核', year, orgId: 9 }, content: [{ orgId: 1, orgName: '第一党支部', indicators: 3, total: 92.5, rank: 1 }, { orgId: 2, orgName: '第二党支部', indicators: 3, total: 80, rank: 2 }] };
    if (url === '/api/evaluation/assess/4/results') return { plan: { id: 4, title: '上年考核', year: year - 1, orgId: 9 }, content: [{ orgId: 3, orgName: '第三党支部', indicators: 2, total: 70, rank: 1 }] };
    if (url.startsWith('/api/evaluation/points/ranking?'))
      return { year, content: [{ memberId: 11, name: '张三', orgId: 1, meeting: 12, study: 8, dues: 12, manual: 3, total: 35, rank: 1 }] };
    if (url.startsWith('/api/evaluation/points/history?'))
      return {
        year,
        items: [],
        points: { memberId: 11, name: '张三', orgId: 1, meeting: 12, study: 8, dues: 12, manual: 3, total: 35 },
        manual: [{ id: 1, date: `${year}-05-04`, score: 3, reason: '参加社区志愿服务', state: 1, itemName: '志愿服务' }],
      };
    if (url === '/api/m/member-points/schema')
      return { schema: { 'x-id': 'member-points', title: '党员积分', type: 'object', properties: {}, 'x-workflow': { stateField: 'state', states: { '0': { title: '待审核' }, '1': { title: '已生效', final: true } }, transitions: {} } }, actions: ['list'], dicts: [] };
    return [];
  };
  return { ...real, get: (url: string) => answer(url), post: (url: string) => answer(url) };
});

describe('evaluation panels', () => {
  beforeEach(() => {
    server.calls.length = 0;
    useSession.setState({ roles: ['member-assist:list', 'service-assess-plan:list', 'member-points:list'] });
  });
  afterEach(() => {
    cleanup();
    useSession.setState({ roles: [] });
  });

  it('[S1.F14e] 党员帮扶 shows the year\'s totals per branch and their sum in cents', async () => {
    renderWithProviders(<MemberAssistPage title="党员帮扶" />);
    const first = await screen.findByText('第一党支部', undefined, { timeout: 30_000 });
    expect(within(first.closest('tr')!).getByText('1500.50')).toBeTruthy();
    expect(server.calls).toContain(`/api/evaluation/assist/totals?year=${year}`);
    const sum = document.querySelector('.assist-totals-sum')!;
    expect(sum.textContent).toBe('合计31500.702500.35');
  });

  it('[S1.F14b] 考核方案 shows the newest plan\'s results and ranking, and another plan when chosen', async () => {
    renderWithProviders(<AssessPlanPage title="考核方案" />);
    const top = await screen.findByText('92.5', undefined, { timeout: 30_000 });
    expect(top.closest('tr')!.textContent).toBe('1第一党支部392.5');
    expect(screen.getByText('第二党支部').closest('tr')!.textContent).toBe('2第二党支部380');
    await act(async () => {
      fireEvent.mouseDown(document.querySelector('.evaluation-assess-results .ant-select')!);
      await new Promise((r) => setTimeout(r, 30));
    });
    fireEvent.click(await screen.findByText(`${year - 1}年 上年考核`, { selector: '.ant-select-item-option-content' }, { timeout: 30_000 }));
    await screen.findByText('第三党支部', undefined, { timeout: 30_000 });
    expect(server.calls).toContain('/api/evaluation/assess/4/results');
  });

  it('[S1.F14f] 党员积分: a member\'s 明细 shows the year\'s points by source and the manual records with their state', async () => {
    renderWithProviders(<MemberPointsPage title="党员积分" />);
    fireEvent.click(await screen.findByRole('button', { name: '张三的积分明细' }, { timeout: 30_000 }));
    await screen.findByText(`张三的积分明细（${year}年）`, undefined, { timeout: 30_000 });
    expect(server.calls).toContain(`/api/evaluation/points/history?memberId=11&year=${year}`);
    expect((await screen.findByText('参加社区志愿服务', undefined, { timeout: 30_000 })).closest('tr')!.textContent).toContain(`${year}-05-04`);
    expect(document.querySelector('.points-history-total')!.textContent).toBe('35');
    expect(await screen.findByText('已生效', undefined, { timeout: 30_000 })).toBeTruthy();
  });
});
