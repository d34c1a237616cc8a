/**
 * Rendering renderer components in happy-dom: react-query and antd's App around them, and the request
 * layer answered by a fake server (`answer(method, url, body)`), so no network is involved.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { App } from 'antd';
import type { ReactElement } from 'react';
import { vi } from 'vitest';
import type { ModuleSchema } from '../../../src/shared/module-schema/types';

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
      <App>{ui}</App>
    </QueryClientProvider>,
  );
}

/** A module schema with `count` fields of mixed kinds (text, numbers, dates, dictionaries, enums, text areas). */
export function generatedSchema(count: number): ModuleSchema {
  const properties: ModuleSchema['properties'] = {};
  for (let i = 0; i < count; i++) {
    const name = `f${i}`;
    switch (i % 10) {
      case 3:
        properties[name] = { type: 'integer', title: `数量${i}`, minimum: 0 };
        break;
      case 4:
        properties[name] = { type: 'string', title: `日期${i}`, format: 'date' };
        break;
      case 5:
        properties[name] = { type: 'string', title: `性别${i}`, 'x-dict': 'DJ_COMM_XB', 'x-widget': 'select' };
        break;
      case 6:
        properties[name] = { type: 'string', title: `类别${i}`, enum: ['甲', '乙', '丙'] };
        break;
      case 7:
        properties[name] = { type: 'string', title: `备注${i}`, format: 'textarea', maxLength: 500 };
        break;
      case 8:
        properties[name] = { type: 'string', title: `手机${i}`, format: 'mobile' };
        break;
      default:
        properties[name] = { type: 'string', title: `字段${i}`, maxLength: 50 };
    }
  }
  properties.birthDate = { type: 'string', title: '出生日期', format: 'date' };
  properties.age = { type: 'integer', title: '年龄', readOnly: true, 'x-computed': { fn: 'age', args: ['birthDate'] } };
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    'x-id': 'big',
    title: '大表单',
    type: 'object',
    additionalProperties: false,
    required: ['f0', 'f1'],
    properties,
    'x-form': {
      layout: 'groups',
      columns: 3,
      groups: [
        { title: '第一组', fields: Object.keys(properties).slice(0, 60) },
        { title: '第二组', fields: Object.keys(properties).slice(60) },
      ],
    },
  };
}

export { vi };
