import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { AxiosAdapter, InternalAxiosRequestConfig } from 'axios';
import { createElement, type ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { DICT_PAGE, DICT_SIZE } from '../../src/shared/constants';
import { dictLabel, fetchDict, useDict } from '../../src/web/core/dicts';
import { request, serializeParams } from '../../src/web/core/request/request';

const original = request.defaults.adapter;
afterEach(() => {
  request.defaults.adapter = original;
});

const GENDER = [
  { id: 1, value: '1', label: '男', dictSort: 1, parent: null, disabled: false },
  { id: 2, value: '2', label: '女', dictSort: 2, parent: null, disabled: false },
  { id: 3, value: '9', label: '未说明的性别', dictSort: 4, parent: null, disabled: true },
];

function answerDict(sent: InternalAxiosRequestConfig[]) {
  const adapter: AxiosAdapter = async (config) => {
    sent.push(config);
    return { status: 200, statusText: 'OK', data: { content: GENDER, totalElements: GENDER.length }, headers: {}, config };
  };
  request.defaults.adapter = adapter;
}

/** The query string exactly as the request layer puts it on the wire. */
const wire = (c: InternalAxiosRequestConfig) => `${c.url}?${serializeParams(c.params as Record<string, unknown>)}`;

describe('dictionaries on the web side (spec S7.D1a, S9.L2)', () => {
  it('[S7.D1a][S9.L2] the dictionary fetch sends exactly dictName, page=0 and size=9999', async () => {
    const sent: InternalAxiosRequestConfig[] = [];
    answerDict(sent);
    expect([DICT_PAGE, DICT_SIZE]).toEqual([0, 9999]);
    await fetchDict('DJ_COMM_XB');
    expect(sent).toHaveLength(1);
    expect(sent[0].method).toBe('get');
    expect(wire(sent[0])).toBe('/api/dictDetail?dictName=DJ_COMM_XB&page=0&size=9999');
  });

  it('dictLabel turns a value into its label once the dictionary is loaded; unknown values stay as they are', async () => {
    answerDict([]);
    expect(dictLabel('DJ_NOT_LOADED', '1')).toBe('1');
    await fetchDict('DJ_COMM_XB');
    expect(dictLabel('DJ_COMM_XB', '2')).toBe('女');
    expect(dictLabel('DJ_COMM_XB', 1)).toBe('男');
    expect(dictLabel('DJ_COMM_XB', '7')).toBe('7');
    expect(dictLabel('DJ_COMM_XB', null)).toBe('');
  });

  it('useDict: one request per dictionary for all components (cached), enabled options and labels', async () => {
    const sent: InternalAxiosRequestConfig[] = [];
    answerDict(sent);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const wrapper = ({ children }: { children: ReactNode }) => createElement(QueryClientProvider, { client }, children);
    const first = renderHook(() => useDict('DJ_COMM_XB'), { wrapper });
    await waitFor(() => expect(first.result.current.entries).toHaveLength(3));
    const second = renderHook(() => useDict('DJ_COMM_XB'), { wrapper });
    expect(second.result.current.entries).toHaveLength(3);
    expect(sent).toHaveLength(1);
    expect(first.result.current.options).toEqual([
      { value: '1', label: '男' },
      { value: '2', label: '女' },
    ]);
    expect(first.result.current.labelOf('9')).toBe('未说明的性别');
    expect(first.result.current.labelOf('x')).toBe('x');
    // No code, no request.
    renderHook(() => useDict(undefined), { wrapper });
    expect(sent).toHaveLength(1);
  });
});
