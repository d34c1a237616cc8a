import { describe, expect, it } from 'vitest';
import { holds, matchPath, resolveScreen } from '../../src/web/mobile/screen';
import { entriesOf, screens } from '../../src/web/mobile/screens';
import type { PublicUser } from '../../src/shared/session-user';

const user = (roles: string[], isSuper = false) => ({ roles, isSuper }) as unknown as PublicUser;

describe('mobile screens', () => {
  it('matches paths with parameters and refuses other lengths or segments', () => {
    expect(matchPath('', '')).toEqual({});
    expect(matchPath('meetings/:id', 'meetings/42')).toEqual({ id: '42' });
    expect(matchPath('checkin/:token', 'checkin/a%2Fb')).toEqual({ token: 'a/b' });
    expect(matchPath('meetings/:id', 'meetings')).toBeNull();
    expect(matchPath('meetings/:id', 'dues/42')).toBeNull();
  });

  it('offers 我的党费 under 我的 only to holders of dues-my:list (or a superuser)', () => {
    expect(entriesOf('me', user(['dues-my:list'])).map((s) => s.path)).toContain('dues');
    expect(entriesOf('me', user([])).map((s) => s.path)).not.toContain('dues');
    expect(holds('x')(user([], true))).toBe(true);
  });

  it('declares each path once and the three core tabs', () => {
    const paths = screens.map((s) => s.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(screens.filter((s) => s.tab).map((s) => s.tab!.label)).toEqual(expect.arrayContaining(['首页', '消息', '我的']));
  });

  it('resolves a literal path before a parameter, whatever the order, and a forbidden screen to the parameter one', () => {
    const secretary = user(['meeting:add']);
    expect(resolveScreen(screens, 'meetings/new', secretary).screen.title).toBe('记录会议');
    expect(resolveScreen(screens, 'meetings/12', secretary)).toMatchObject({ screen: { path: 'meetings/:id' }, params: { id: '12' } });
    expect(resolveScreen(screens, 'meetings/new', user([])).screen.path).toBe('meetings/:id');
    expect(resolveScreen(screens, 'nowhere', secretary).screen.path).toBe('');
  });
});
