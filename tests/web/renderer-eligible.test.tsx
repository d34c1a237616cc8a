/**
 * x-ref-eligible and x-fill in the form (issue 40.1): the election's roll fills in when the organisation is
 * chosen, its checklist greys out who may not be listed with the reason, and 全选 leaves them out.
 */
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import election from '../../schemas/modules/election.json';
import member from '../../schemas/modules/member.json';
import type { ModuleSchema } from '../../src/shared/module-schema/types';
import { RecordForm } from '../../src/web/renderer/form/RecordForm';
import { dictAnswer, renderWithProviders } from './renderer/support';

const PEOPLE = [
  { id: 1, name: '王芳' },
  { id: 2, name: '李明' },
  { id: 3, name: '赵雷' },
];
const REASON = '“赵雷”是预备党员，没有表决权、选举权和被选举权';
const asked: { url: string; body: unknown }[] = [];

vi.mock('../../src/web/core/request/request', async (original) => {
  const real = await original<typeof import('../../src/web/core/request/request')>();
  return {
    ...real,
    get: async (url: string, params?: Record<string, unknown>) => {
      if (url === '/api/m/member/schema') return { schema: member, actions: ['list', 'view'], dicts: [] };
      return dictAnswer(url, params) ?? [];
    },
    post: async (url: string, body: unknown) => {
      asked.push({ url, body });
      if (url === '/api/m/member/list') return { content: PEOPLE, totalElements: PEOPLE.length };
      if (url === '/api/m/election/fill/elections.roll') return { values: { voterIds: [1, 2] } };
      if (url.startsWith('/api/m/election/eligible/')) return { ineligible: { 3: REASON } };
      return {};
    },
  };
});

const schema = election as unknown as ModuleSchema;
const roster = (container: HTMLElement) => container.querySelector<HTMLElement>('[data-field="voterIds"]')!;
const checkbox = (container: HTMLElement, name: string) => [...roster(container).querySelectorAll<HTMLLabelElement>('label.ant-checkbox-wrapper')].find((l) => l.textContent === name)!;

describe('reference fields with x-ref-eligible', () => {
  afterEach(() => {
    cleanup();
    asked.length = 0;
  });

  it('[issue 40.1] the roll fills in with the organisation; who may not be listed is greyed out with the reason and left out of 全选', async () => {
    const { container } = renderWithProviders(<RecordForm schema={schema} initialValues={{ orgId: 7 }} />);
    await waitFor(() => expect(roster(container).textContent).toContain('已选 2 / 3 人'));
    expect(asked.find((a) => a.url === '/api/m/election/fill/elections.roll')?.body).toEqual({ values: { orgId: 7 } });
    const judged = asked.find((a) => a.url === '/api/m/election/eligible/voterIds');
    expect(judged?.body).toEqual({ values: { orgId: 7, assemblyDate: null }, ids: [1, 2, 3] });
    await waitFor(() => expect(checkbox(container, '赵雷').classList).toContain('ant-checkbox-wrapper-disabled'));
    expect(checkbox(container, '赵雷').querySelector('[title]')?.getAttribute('title')).toBe(REASON);
    expect(checkbox(container, '王芳').classList).not.toContain('ant-checkbox-wrapper-disabled');
    expect(roster(container).textContent).toContain('1 人不能列入');
    fireEvent.click(screen.getByRole('button', { name: /清\s?空/ }));
    await act(async () => new Promise((r) => setTimeout(r, 10)));
    expect(roster(container).textContent).toContain('已选 0 / 3 人');
    fireEvent.click(screen.getByRole('button', { name: /全\s?选/ }));
    await waitFor(() => expect(roster(container).textContent).toContain('已选 2 / 3 人'));
  });
});
