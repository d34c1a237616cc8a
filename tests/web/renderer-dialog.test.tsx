import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import regulation from '../../schemas/modules/regulation.json';
import type { ModuleSchema } from '../../src/shared/module-schema/types';
import { FormDialog } from '../../src/web/renderer/form/FormDialog';
import { dictAnswer, renderWithProviders } from './renderer/support';

const schema = regulation as unknown as ModuleSchema;

/** The stored record, and what PUT answers next. */
const server = vi.hoisted(() => ({
  record: {} as Record<string, unknown>,
  putAnswers: [] as ({ status: number; data: unknown } | 'ok')[],
  puts: [] as Record<string, unknown>[],
}));

vi.mock('../../src/web/core/request/request', async (original) => {
  const real = await original<typeof import('../../src/web/core/request/request')>();
  const fail = (status: number, data: unknown) => Object.assign(new Error(`status ${status}`), { isAxiosError: true, response: { status, data } });
  return {
    ...real,
    get: async (url: string, params?: Record<string, unknown>) => (url === '/api/m/regulation/5' ? { ...server.record } : (dictAnswer(url, params) ?? [])),
    put: async (_url: string, body: Record<string, unknown>) => {
      server.puts.push(body);
      const answer = server.putAnswers.shift() ?? 'ok';
      if (answer !== 'ok') throw fail(answer.status, answer.data);
      return { ...server.record, ...body, version: (body.version as number) + 1 };
    },
  };
});

const stored = (version: number, issuer: string) => ({
  id: 5,
  version,
  title: '党支部工作条例',
  category: '党内法规',
  issuer,
  documentNo: '中发〔2018〕1号',
  issuedOn: '2018-10-28',
  summary: null,
  attachment: null,
});

describe('the record dialog', () => {
  beforeEach(() => {
    server.record = stored(1, '中共中央');
    server.putAnswers = [];
    server.puts = [];
  });
  afterEach(cleanup);

  it('sends the version it read; a 409 keeps the typed values and 刷新 loads the current record, listing what was typed', async () => {
    const onSaved = vi.fn();
    const onClose = vi.fn();
    renderWithProviders(<FormDialog module="regulation" schema={schema} open editing={{ id: 5 }} onClose={onClose} onSaved={onSaved} />);
    const issuer = () => document.querySelector<HTMLInputElement>('#root_issuer')!;
    await waitFor(() => expect(issuer()?.value).toBe('中共中央'), { timeout: 30_000 });
    fireEvent.change(issuer(), { target: { value: '我填写的单位' } });

    server.putAnswers.push({ status: 409, data: { status: 409, message: '数据已被他人修改，请刷新后重试', current: stored(2, '他人修改的单位') } });
    server.record = stored(2, '他人修改的单位');
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    await screen.findByText('数据已被他人修改，请刷新后重试');
    expect(server.puts[0]).toMatchObject({ id: 5, version: 1, issuer: '我填写的单位', summary: null });
    // Nothing lost: the dialog is open with what the user typed.
    expect(onClose).not.toHaveBeenCalled();
    expect(issuer().value).toBe('我填写的单位');

    fireEvent.click(screen.getByRole('button', { name: /刷\s*新/ }));
    await waitFor(() => expect(issuer().value).toBe('他人修改的单位'));
    expect(screen.getByText('您刚才填写但未保存的内容')).toBeTruthy();
    expect(screen.getByText('我填写的单位')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(server.puts[1]).toMatchObject({ id: 5, version: 2, issuer: '他人修改的单位' });
    expect(onClose).toHaveBeenCalled();
  });

  it('shows the field messages of a 400 on the fields and keeps the dialog open', async () => {
    const onClose = vi.fn();
    renderWithProviders(<FormDialog module="regulation" schema={schema} open editing={{ id: 5 }} onClose={onClose} />);
    await waitFor(() => expect(document.querySelector<HTMLInputElement>('#root_documentNo')?.value).toBe('中发〔2018〕1号'), { timeout: 30_000 });
    server.putAnswers.push({ status: 400, data: { status: 400, message: '文号“中发〔2018〕1号”已存在', errors: [{ field: 'documentNo', message: '文号“中发〔2018〕1号”已存在' }] } });
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(document.querySelector('[data-field="documentNo"] .ant-form-item-explain')?.textContent).toBe('文号“中发〔2018〕1号”已存在'));
    expect(onClose).not.toHaveBeenCalled();
  });
});
