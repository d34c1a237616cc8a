/**
 * The transfer forms (issue 17) in happy-dom: the receiving branch of a transfer within the school is any
 * branch of the university, so its picker searches every organisation instead of showing the caller's
 * own tree (a branch secretary's tree holds only their branch); the organisation department's approval
 * of a transfer out (开具介绍信, the step `approve` open from state 1) asks for the letter's fields.
 */
import { act, cleanup, fireEvent, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import internal from '../../schemas/modules/transfer-internal.json';
import member from '../../schemas/modules/member.json';
import out from '../../schemas/modules/transfer-out.json';
import { recordFormSchema } from '../../src/shared/module-schema/workflow';
import type { ModuleSchema } from '../../src/shared/module-schema/types';
import { RecordForm } from '../../src/web/renderer/form/RecordForm';
import { useSession } from '../../src/web/core/stores/session';
import { BatchDialog } from '../../src/web/renderer/workflow/BatchDialog';
import { TransitionDialog } from '../../src/web/renderer/workflow/TransitionDialog';
import { dictAnswer, renderWithProviders } from './renderer/support';

const get = vi.fn(async (url: string, params?: Record<string, unknown>) => {
  if (url === '/api/dzzxx/buildtree') return [{ id: 30, name: '本支部' }];
  if (url === '/api/m/org/options') return [{ id: 44, name: '机电学院教工第1党支部' }, { id: 30, name: '本支部' }];
  return dictAnswer(url, params) ?? [];
});
vi.mock('../../src/web/core/request/request', async (original) => {
  const real = await original<typeof import('../../src/web/core/request/request')>();
  return { ...real, get: (url: string, params?: Record<string, unknown>) => get(url, params) };
});

const open = async (field: HTMLElement) => {
  await act(async () => {
    fireEvent.mouseDown(field.querySelector('.ant-select')!);
    await new Promise((r) => setTimeout(r, 30));
  });
};

describe('the transfer-within-the-school form', () => {
  afterEach(() => {
    cleanup();
    get.mockClear();
  });

  it('searches every organisation for 转入党支部 (x-widget select), not the caller\'s tree', async () => {
    const { container } = renderWithProviders(<RecordForm schema={recordFormSchema(internal as unknown as ModuleSchema)} />);
    const field = container.querySelector<HTMLElement>('[data-field="toOrgId"]')!;
    expect(field.querySelector('.ant-select-tree-select, .ant-tree-select')).toBeNull();
    await open(field);
    await waitFor(() => expect(get).toHaveBeenCalledWith('/api/m/org/options', expect.objectContaining({ size: 30 })));
    await waitFor(() => expect(document.body.textContent).toContain('机电学院教工第1党支部'));
  });

  it('keeps the organisation tree for an x-ref org field without x-widget select', async () => {
    const { container } = renderWithProviders(<RecordForm schema={member as unknown as ModuleSchema} />);
    await open(container.querySelector<HTMLElement>('[data-field="orgId"]')!);
    await waitFor(() => expect(get).toHaveBeenCalledWith('/api/dzzxx/buildtree', expect.anything()));
    expect(get).not.toHaveBeenCalledWith('/api/m/org/options', expect.anything());
  });
});

describe('a step sharing its id with another level\'s (transfer-out approve)', () => {
  afterEach(cleanup);

  const step = (fields: string[]) => ({
    id: 'approve', title: fields.length ? '开具介绍信' : '二级党委审批', to: 2, toTitle: '已开具介绍信', result: 'pass' as const, level: 'orgdept', levelTitle: '党委组织部',
    fields: fields.map((name) => ({ name, title: name, required: false })), comment: 'optional' as const, warnings: [], blocked: [],
  });

  it('shows the fields of the step open from the record\'s state: 有效天数 and 党费交至 when the letter is issued', async () => {
    const record = { id: 7, version: 3, name: '张三', state: 1, validDays: 30 };
    renderWithProviders(<TransitionDialog module="transfer-out" schema={out as unknown as ModuleSchema} record={record} step={step(['validDays', 'duesPaidTo'])} onClose={() => {}} />);
    await waitFor(() => expect(document.querySelector('.wf-dialog #root_validDays')).not.toBeNull());
    expect((document.querySelector('.wf-dialog #root_validDays') as HTMLInputElement).value).toBe('30');
    expect(document.querySelector('.wf-dialog #root_duesPaidTo')).not.toBeNull();
  });

  it('batch approval of records waiting for the letter shows the letter\'s fields too', async () => {
    useSession.setState({ roles: ['admin'] });
    const records = [{ id: 7, version: 3, name: '张三', state: 1 }, { id: 8, version: 1, name: '李四', state: 1 }];
    renderWithProviders(<BatchDialog module="transfer-out" schema={out as unknown as ModuleSchema} records={records} onClose={() => {}} />);
    await waitFor(() => expect(document.querySelector('#root_validDays')).not.toBeNull());
    expect(document.querySelector('#root_duesPaidTo')).not.toBeNull();
  });
});
