import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TaskStatus } from '../../src/shared/constants';
import { UserImportDialog } from '../../src/web/pages/system/users/UserImportDialog';
import { ImportDialog } from '../../src/web/renderer/list/ImportDialog';
import { renderWithProviders } from './renderer/support';

/** What the dialogs sent, and the fake server's answers. */
const server = vi.hoisted(() => ({ posts: [] as { url: string; body: FormData }[] }));

const errors = [{ row: 4, column: '手机号码', message: '请输入正确的手机号码' }];

vi.mock('../../src/web/core/request/request', async (original) => {
  const real = await original<typeof import('../../src/web/core/request/request')>();
  return {
    ...real,
    post: async (url: string, body: FormData) => {
      server.posts.push({ url, body });
      return url === '/api/users/import' ? { total: 2, imported: 1, errors } : { jobId: 7 };
    },
    get: async (url: string) =>
      url === '/api/m/cadre/import/7'
        ? { id: 7, status: TaskStatus.SUCCESS, statusLabel: '成功', mode: 'partial', fileName: 'a.xlsx', total: 2, processed: 2, imported: 1, errors, message: '导入完成：成功1行，失败1行', reportUrl: null }
        : [],
  };
});

afterEach(() => {
  cleanup();
  server.posts.length = 0;
});

const chooseFile = (name = '用户.xlsx') => {
  const input = document.querySelector<HTMLInputElement>('.ant-modal input[type=file]')!;
  fireEvent.change(input, { target: { files: [new File(['x'], name)] } });
};

describe('the import dialogs share the chooser and the error table', () => {
  it('the users dialog sends the file and the mode, then shows the count and the bad rows', async () => {
    const onImported = vi.fn();
    renderWithProviders(<UserImportDialog open onClose={() => undefined} onImported={onImported} />);
    fireEvent.click(await screen.findByText('全部成功才导入（有任何错误则不导入）'));
    chooseFile();
    await screen.findByText('用户.xlsx');
    fireEvent.click(screen.getByRole('button', { name: '开始导入' }));
    await screen.findByText('成功导入 1 条，1 行数据有误未导入');
    expect(server.posts).toHaveLength(1);
    expect(server.posts[0].body.get('mode')).toBe('all');
    expect((server.posts[0].body.get('file') as File).name).toBe('用户.xlsx');
    expect(onImported).toHaveBeenCalledTimes(1);
    const row = screen.getByText('请输入正确的手机号码').closest('tr')!;
    expect(row.textContent).toBe('4手机号码请输入正确的手机号码');
  });

  it('refuses a file that is not .xlsx before sending anything', async () => {
    renderWithProviders(<UserImportDialog open onClose={() => undefined} onImported={() => undefined} />);
    chooseFile('users.csv');
    await screen.findByText('只能导入 .xlsx 文件（请使用导入模板）');
    fireEvent.click(screen.getByRole('button', { name: '开始导入' }));
    await screen.findByText('请选择要导入的 .xlsx 文件');
    expect(server.posts).toHaveLength(0);
  });

  it('the module import dialog still shows the job outcome with the same table', async () => {
    renderWithProviders(<ImportDialog module="cadre" title="干部" open onClose={() => undefined} />);
    chooseFile('干部.xlsx');
    await screen.findByText('干部.xlsx');
    fireEvent.click(screen.getByRole('button', { name: '开始导入' }));
    await screen.findByText('导入完成：成功1行，失败1行');
    expect(server.posts[0].body.get('mode')).toBe('partial');
    await waitFor(() => expect(screen.getByText('请输入正确的手机号码').closest('tr')!.textContent).toBe('4手机号码请输入正确的手机号码'));
  });
});
