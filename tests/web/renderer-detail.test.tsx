import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ModuleSchema } from '../../src/shared/module-schema/types';
import { useSession } from '../../src/web/core/stores/session';
import { DetailDrawer } from '../../src/web/renderer/detail/DetailDrawer';
import { dictAnswer, renderWithProviders } from './renderer/support';

const base = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', additionalProperties: false } as const;

/** A cadre with family members (x-children) and a trail. */
const cadre = {
  ...base,
  'x-id': 'cadre',
  title: '干部信息',
  required: ['name'],
  properties: {
    name: { type: 'string', title: '姓名' },
    gender: { type: 'string', title: '性别', 'x-dict': 'DJ_COMM_XB' },
    resume: { type: 'string', title: '简历', format: 'textarea' },
  },
  'x-name-field': 'name',
  'x-children': [{ module: 'cadre-family', foreignKey: 'cadreId', title: '家庭成员' }],
  'x-trail': true,
} as unknown as ModuleSchema;

const family = {
  ...base,
  'x-id': 'cadre-family',
  title: '家庭成员',
  properties: {
    cadreId: { type: 'integer', title: '干部', 'x-ref': 'cadre' },
    relation: { type: 'string', title: '称谓' },
    name: { type: 'string', title: '姓名' },
  },
  'x-list': { columns: ['cadreId', 'relation', 'name'] },
} as unknown as ModuleSchema;

const server = vi.hoisted(() => ({ calls: [] as { url: string; body?: unknown; params?: Record<string, unknown> }[], schemas: {} as Record<string, unknown> }));

vi.mock('../../src/web/core/request/request', async (original) => {
  const real = await original<typeof import('../../src/web/core/request/request')>();
  const answer = async (url: string, body?: unknown, params?: Record<string, unknown>) => {
    server.calls.push({ url, body, params });
    if (url === '/api/m/cadre-family/schema') return { schema: server.schemas.family, actions: ['list', 'view', 'add', 'edit', 'delete'], dicts: [] };
    if (url === '/api/m/cadre/7') return { id: 7, version: 3, name: '李四', gender: '1', genderLabel: '男', resume: '1990年参加工作\n2010年任处长', createdAt: '2026-01-02T01:00:00Z', updatedAt: '2026-02-03T02:00:00Z' };
    if (url === '/api/m/cadre-family/list') return { content: [{ id: 70, version: 1, cadreId: 7, cadreIdName: '李四', relation: '配偶', name: '王芳' }], totalElements: 1 };
    if (url === '/api/m/cadre/7/trail')
      return {
        content: [
          { id: 2, module: 'cadre', recordId: 7, type: 2, typeLabel: '修改', origin: 3, originLabel: '用户修改', username: 'admin', at: '2026-02-03T02:00:00Z', changes: [{ field: 'gender', title: '性别', before: '2', after: '1', beforeLabel: '女', afterLabel: '男' }] },
          { id: 1, module: 'cadre', recordId: 7, type: 1, typeLabel: '新增', origin: 1, originLabel: '系统导入', username: 'admin', at: '2026-01-02T01:00:00Z', changes: [{ field: 'name', title: '姓名', before: null, after: '李四' }] },
        ],
        totalElements: 2,
      };
    return dictAnswer(url, params) ?? [];
  };
  return {
    ...real,
    get: (url: string, params?: Record<string, unknown>) => answer(url, undefined, params),
    post: (url: string, body?: unknown, config?: { params?: Record<string, unknown> }) => answer(url, body, config?.params),
  };
});

const downloads = vi.hoisted(() => [] as { url: string; name: string }[]);
vi.mock('../../src/web/core/request/download', async (original) => {
  const real = await original<typeof import('../../src/web/core/request/download')>();
  return { ...real, download: async (url: string, _params: unknown, name: string) => void downloads.push({ url, name }) };
});

describe('the record detail', () => {
  beforeEach(() => {
    server.calls.length = 0;
    server.schemas.family = family;
    useSession.setState({ roles: ['admin'] });
  });
  afterEach(() => {
    cleanup();
    useSession.setState({ roles: [] });
  });

  it('shows every field with its label, a tab per child module and the trail', async () => {
    renderWithProviders(<DetailDrawer module="cadre" schema={cadre} id={7} onClose={() => undefined} onEdit={() => undefined} />);
    await screen.findByText('干部信息详情 · 李四', undefined, { timeout: 30_000 });
    expect(screen.getByText('简历')).toBeTruthy();
    expect(screen.getByText('男')).toBeTruthy();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['基本信息', '家庭成员', '修改记录']);

    fireEvent.click(screen.getByRole('tab', { name: '家庭成员' }));
    await screen.findByText('王芳', undefined, { timeout: 30_000 });
    // The child list is filtered by the foreign key and does not repeat the parent column.
    expect(server.calls.find((c) => c.url === '/api/m/cadre-family/list')!.body).toEqual({ cadreId: 7 });
    const childTable = screen.getByText('王芳').closest('table')!;
    expect(within(childTable).queryByText('干部')).toBeNull();
    expect(within(childTable).getByText('配偶')).toBeTruthy();

    fireEvent.click(screen.getByRole('tab', { name: '修改记录' }));
    const update = (await screen.findByText('用户修改', undefined, { timeout: 30_000 })).closest('li')!;
    expect(within(update).getByText('女').tagName).toBe('DEL');
    expect(within(update).getByText('男').tagName).toBe('INS');
    expect(within(update).getByRole('button', { name: /恢\s*复/ })).toBeTruthy();
    const added = screen.getByText('系统导入').closest('li')!;
    expect(within(added).queryByRole('button', { name: /恢\s*复/ })).toBeNull();
  });

  it('offers no 恢复 without the edit permission', async () => {
    useSession.setState({ roles: ['cadre:list', 'cadre:view'] });
    renderWithProviders(<DetailDrawer module="cadre" schema={cadre} id={7} onClose={() => undefined} onEdit={() => undefined} />);
    await screen.findByText('干部信息详情 · 李四', undefined, { timeout: 30_000 });
    expect(screen.queryByRole('button', { name: /编\s*辑/ })).toBeNull();
    fireEvent.click(screen.getByRole('tab', { name: '修改记录' }));
    await screen.findByText('用户修改', undefined, { timeout: 30_000 });
    await waitFor(() => expect(screen.queryByRole('button', { name: /恢\s*复/ })).toBeNull());
  });

  it('[issue 41.3] an x-links download is a button that fetches the API file under the record\'s name, shown only when its x-show-if holds', async () => {
    const withFile = (values: unknown[]) =>
      ({ ...cadre, 'x-links': [{ title: '下载全部介绍信（PDF）', path: '/api/cadre-files/{id}/letters.pdf', download: '{name}介绍信.pdf', 'x-show-if': { field: 'gender', in: values } }] }) as unknown as ModuleSchema;
    const hidden = renderWithProviders(<DetailDrawer module="cadre" schema={withFile(['2'])} id={7} onClose={() => undefined} onEdit={() => undefined} />);
    await screen.findByText('干部信息详情 · 李四', undefined, { timeout: 30_000 });
    expect(screen.queryByRole('button', { name: /下载全部介绍信/ })).toBeNull();
    hidden.unmount();
    renderWithProviders(<DetailDrawer module="cadre" schema={withFile(['1'])} id={7} onClose={() => undefined} onEdit={() => undefined} />);
    fireEvent.click(await screen.findByRole('button', { name: /下载全部介绍信（PDF）/ }, { timeout: 30_000 }));
    await waitFor(() => expect(downloads).toEqual([{ url: '/api/cadre-files/7/letters.pdf', name: '李四介绍信.pdf' }]));
  });
});
