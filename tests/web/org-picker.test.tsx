import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

const get = vi.fn();
vi.mock('../../src/web/core/request/request', () => ({ get: (...args: unknown[]) => get(...args) }));
const { OrgPicker } = await import('../../src/web/pages/system/roles/OrgPicker');

function renderPicker(value: number[] | undefined, onChange: (ids: number[]) => void) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <OrgPicker id="orgs" value={value} onChange={onChange} />
    </QueryClientProvider>,
  );
}

describe('the organisation picker of a custom data scope', () => {
  afterEach(() => {
    cleanup();
    get.mockReset();
  });

  it('falls back to typed organisation ids when the tree API answers 404', async () => {
    get.mockRejectedValue(Object.assign(new Error('Not Found'), { response: { status: 404 } }));
    const onChange = vi.fn();
    renderPicker([3], onChange);
    await screen.findByText(/组织树暂不可用/);
    const input = screen.getByPlaceholderText(/组织编号/) as HTMLInputElement;
    expect(input.value).toBe('3');
    fireEvent.change(input, { target: { value: '12，abc, 15 12' } });
    expect(onChange).toHaveBeenLastCalledWith([12, 15]);
    expect(input.value).toBe('12，abc, 15 12');
    expect(get).toHaveBeenCalledWith('/api/dzzxx/buildtree', { withCount: false }, expect.objectContaining({ skipErrorNotify: true }));
  });

  it('offers the tree when the API answers one', async () => {
    get.mockResolvedValue([{ id: 1, name: '党委', children: [{ id: 2, name: '第一支部' }] }]);
    renderPicker([], vi.fn());
    await waitFor(() => expect(document.querySelector('.ant-select')).not.toBeNull());
    expect(screen.queryByPlaceholderText(/组织编号/)).toBeNull();
    expect(screen.queryByText(/组织树暂不可用/)).toBeNull();
  });
});
