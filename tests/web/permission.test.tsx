import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Permission, checkPermission } from '../../src/web/core/Permission';
import { useSession } from '../../src/web/core/stores/session';

describe('the Permission component', () => {
  beforeEach(() => useSession.setState({ roles: ['r1'] }));
  afterEach(() => {
    cleanup();
    useSession.setState({ roles: [] });
  });

  it('[S6.P2] with roles [r1], an element requiring [r1, r2] is in the DOM and one requiring [r3] is absent', () => {
    render(
      <div data-testid="page">
        <Permission roles={['r1', 'r2']}>
          <button type="button">allowed</button>
        </Permission>
        <Permission roles={['r3']}>
          <button type="button">forbidden</button>
        </Permission>
      </div>,
    );
    expect(screen.getByRole('button', { name: 'allowed' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'forbidden' })).toBeNull();
    // Absent, not merely hidden: the page holds exactly one element.
    expect(screen.getByTestId('page').innerHTML).not.toContain('forbidden');
    expect(screen.getByTestId('page').children).toHaveLength(1);
  });

  it('[S6.P2] follows the session: granting r3 adds the element, removing r1 takes the other away', () => {
    const view = () => (
      <div data-testid="page">
        <Permission roles={['r1', 'r2']}>
          <span>first</span>
        </Permission>
        <Permission roles={['r3']}>
          <span>second</span>
        </Permission>
      </div>
    );
    const { rerender } = render(view());
    useSession.setState({ roles: ['r3'] });
    rerender(view());
    expect(screen.queryByText('first')).toBeNull();
    expect(screen.getByText('second')).toBeTruthy();
  });

  it('the superuser permission admin passes every check; no roles pass nothing', () => {
    expect(checkPermission(['admin'], ['anything:at-all'])).toBe(true);
    expect(checkPermission([], ['r1'])).toBe(false);
    expect(checkPermission(['r1'], [])).toBe(false);
  });
});
