/**
 * Rendering renderer components in happy-dom: react-query and antd's App around them, and the request
 * layer answered by a fake server (`answer(method, url, body)`), so no network is involved.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { App } from 'antd';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { vi } from 'vitest';

export type Answer = (method: string, url: string, body?: unknown, params?: Record<string, unknown>) => unknown;

/** Dictionary pages for the codes tests use. */
export const DICTS: Record<string, [string, string][]> = {
  DJ_COMM_XB: [
    ['1', '男'],
    ['2', '女'],
  ],
  DJ_DYJBXX_RYLX: [
    ['1', '正式党员'],
    ['2', '预备党员'],
  ],
  DJ_DY_RYLBXX: [
    ['1', '教职工'],
    ['2', '学生'],
    ['3', '离退休'],
  ],
};

export function dictAnswer(url: string, params?: Record<string, unknown>): unknown {
  if (url !== '/api/dictDetail') return undefined;
  const entries = DICTS[String(params?.dictName)] ?? [];
  return {
    content: entries.map(([value, label], i) => ({ id: i + 1, value, label, dictSort: i, parent: null, disabled: false })),
    totalElements: entries.length,
  };
}

export function renderWithProviders(ui: ReactElement) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      {/* Pages live under the app's router (a to-do link's ?id= opens a record). */}
      <MemoryRouter>
        <App>{ui}</App>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

export { generatedSchema } from '../../fixtures/wide-schema';

export { vi };
