import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ModuleSchema } from '../../src/shared/module-schema/types';
import { useSession } from '../../src/web/core/stores/session';
import { DetailDrawer } from '../../src/web/renderer/detail/DetailDrawer';
import { dictAnswer, renderWithProviders } from './renderer/support';

const base = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', additionalProperties: false } as const;

/** A cadre linked to a member (`memberId`), relating the member's rewards as the server serves it (x-related, permission filled in). */
const cadre = {
  ...base,
  'x-id': 'cadre',
  title: '干部信息',
  properties: {
    name: { type: 'string', title: '姓名' },
    memberId: { type: 'integer', title: '关联党员', 'x-ref': 'member' },
  },
  'x-name-field': 'name',
  'x-related': [{ module: 'member-reward', foreignKey: 'memberId', key: 'memberId', title: '奖惩信息', permission: 'member-reward:list' }],
} as unknown as ModuleSchema;

const reward = {
  ...base,
  'x-id': 'member-reward',
  title: '奖惩信息',
  properties: {
    memberId: { type: 'integer', title: '党员', 'x-ref': 'member' },
    name: { type: 'string', title: '奖惩名称' },
    docNo: { type: 'string', title: '文号' },
  },
  'x-list': { columns: ['memberId', 'name', 'docNo'] },
  'x-permissions': { list: 'member-reward:list', view: 'member-reward:list', add: 'member-reward:add', edit: 'member-reward:edit', delete: 'member-reward:delete' },
} as unknown as ModuleSchema;

const server = vi.hoisted(() => ({ calls: [] as { url: string; body?: unknown }[], memberId: 30 as number | null }));

vi.mock('../../src/web/core/request/request', async (original) => {
  const real = await original<typeof import('../../src/web/core/request/request')>();
  const answer = async (url: string, body?: unknown, params?: Record<string, unknown>) => {
    server.calls.push({ url, body });
    if (url === '/api/m/member-reward/schema') return { schema: reward, actions: ['list', 'view'], dicts: [] };
    if (url === '/api/m/cadre/7') return { id: 7, version: 1, name: '李四', memberId: server.memberId, memberIdName: server.memberId ? '李四' : undefined };
    if (url === '/api/m/member-reward/list') return { content: [{ id: 70, version: 1, memberId: 30, memberIdName: '李四', name: '优秀共产党员', docNo: '党字〔2026〕8号' }], totalElements: 1 };
    return dictAnswer(url, params) ?? [];
  };
  return {
    ...real,
    get: (url: string, params?: Record<string, unknown>) => answer(url, undefined, params),
    post: (url: string, body?: unknown, config?: { params?: Record<string, unknown> }) => answer(url, body, config?.params),
  };
});

const open = async () => {
  renderWithProviders(<DetailDrawer module="cadre" schema={cadre} id={7} onClose={() => undefined} onEdit={() => undefined} />);
  await screen.findByText('干部信息详情 · 李四', undefined, { timeout: 30_000 });
};

describe('related records on the detail (x-related)', () => {
  beforeEach(() => {
    server.calls.length = 0;
    server.memberId = 30;
  });
  afterEach(() => {
    cleanup();
    useSession.setState({ roles: [] });
  });

  it('[S1.F14a] a cadre\'s detail lists the linked member\'s rewards, filtered by the member, without their own page\'s buttons', async () => {
    useSession.setState({ roles: ['cadre:list', 'member-reward:list'] });
    await open();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['基本信息', '奖惩信息']);
    fireEvent.click(screen.getByRole('tab', { name: '奖惩信息' }));
    await screen.findByText('党字〔2026〕8号', undefined, { timeout: 30_000 });
    expect(server.calls.find((c) => c.url === '/api/m/member-reward/list')!.body).toEqual({ memberId: 30 });
    expect(screen.queryByRole('button', { name: /新\s*增/ })).toBeNull(); // member-reward:add is not held
  });

  it('shows no tab to those who may not list the related module, nor while the key is empty', async () => {
    useSession.setState({ roles: ['cadre:list'] });
    await open();
    expect(screen.queryByRole('tab')).toBeNull(); // only the fields: no tabs at all
    cleanup();
    useSession.setState({ roles: ['cadre:list', 'member-reward:list'] });
    server.memberId = null;
    await open();
    expect(screen.queryByRole('tab', { name: '奖惩信息' })).toBeNull();
    expect(server.calls.some((c) => c.url === '/api/m/member-reward/list')).toBe(false);
  });
});
