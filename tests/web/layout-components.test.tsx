import { act, cleanup, render } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { setSanitizedHtml } from '../../src/web/core/layout/AppFooter';
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

// The DOMPurify path runs in Chromium in tests/e2e/layout-shell.test.ts (happy-dom's DOM cannot host DOMPurify).
describe('the footer HTML', () => {
  const dirty = '<b>页脚</b><img src="/web/ba.png" alt="备案" onerror="window.__xss=1"><script>window.__xss=2</script><style>body{display:none}</style><a href="javascript:alert(1)">x</a><a href="https://beian.miit.gov.cn" target="_blank">备案</a>';

  it('[S2.L6] with the browser sanitizer, setHTML gets the HTML and the <style> removal; nothing else is written', async () => {
    const el = document.createElement('div') as HTMLDivElement & { setHTML?: unknown };
    const calls: unknown[][] = [];
    el.setHTML = (...args: unknown[]) => calls.push(args);
    await setSanitizedHtml(el, dirty);
    expect(calls).toEqual([[dirty, { sanitizer: { removeElements: ['style'] } }]]);
    expect(el.innerHTML).toBe('');
  });

  it('a sanitised value that arrives after the footer moved on is not written', async () => {
    const el = document.createElement('div');
    await setSanitizedHtml(el, '<b>旧</b>', () => false);
    expect(el.innerHTML).toBe('');
  });
});
