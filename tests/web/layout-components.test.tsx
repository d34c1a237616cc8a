import { act, cleanup, render } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { UserMenu } from '../../src/web/core/layout/UserMenu';
import { useCounters } from '../../src/web/core/stores/counters';

afterEach(() => {
  cleanup();
  useCounters.getState().reset();
});

describe('the user button badge', () => {
  it('[S2.L3f][S9.L4b] shows remind + todo and never a number above 99', async () => {
    const view = render(
      <AntApp>
        <MemoryRouter>
          <UserMenu />
        </MemoryRouter>
      </AntApp>,
    );
    const badge = () => view.container.querySelector('.user-badge .ant-badge-count')?.getAttribute('title') ?? '';
    act(() => useCounters.getState().setCounters({ remind: { totalElements: 3 }, todo: { totalElements: 4 } }));
    expect(badge()).toBe('7');
    act(() => useCounters.getState().setCounters({ remind: { totalElements: 100 }, todo: { totalElements: 50 } }));
    expect(badge()).toBe('99');
  });
});
