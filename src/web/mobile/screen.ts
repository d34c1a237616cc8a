/**
 * A screen of the mobile terminal: a path under /web/m/ (segments starting with `:` are parameters), its title,
 * and where it is offered (a bottom tab, an entry on 我的 or 首页). Areas add screens in their own list
 * (screens/member, screens/branch); MobileApp matches the path and shows only screens the user may open.
 */
import type { ReactNode } from 'react';
import type { PublicUser } from '../../shared/session-user';

export interface ScreenContext {
  user: PublicUser;
  /** Opens another screen (a path under /web/m/, no leading slash). */
  go(path: string): void;
  /** The path's parameters (`meetings/:id` → `{ id }`). */
  params: Record<string, string>;
  /** Replaces the title bar's text while this screen shows (a screen whose title depends on its data). */
  setTitle(title: string): void;
}

export interface MobileScreen {
  path: string;
  title: string;
  /** A tab of the bottom bar (ordered by `order`). */
  tab?: { label: string; icon: string; order: number };
  /** An entry in a menu of 我的 or a tile of 首页 leading here (ordered by `order`). */
  entry?: { place: 'me' | 'home'; label: string; order: number };
  /** Whether this user may open the screen (permissions from `user.roles`; default: everyone logged in). */
  allowed?(user: PublicUser): boolean;
  render(ctx: ScreenContext): ReactNode;
}

/** A permission check: a superuser or a user holding the permission. */
export const holds = (permission: string) => (user: PublicUser) => user.isSuper || user.roles.includes(permission);

/** Matches `path` against a screen's pattern; answers its parameters or null. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const got = path.split('/').filter(Boolean);
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i].startsWith(':')) params[want[i].slice(1)] = decodeURIComponent(got[i]);
    else if (want[i] !== got[i]) return null;
  }
  return params;
}

/**
 * The screen of a path this user may open, with its parameters; unknown or forbidden paths show the first
 * screen (首页). A literal path wins over a parameter (`meetings/new` before `meetings/:id`), whichever area
 * declared its screens first.
 */
export function resolveScreen(screens: MobileScreen[], path: string, user: PublicUser | null): { screen: MobileScreen; params: Record<string, string> } {
  let best: { screen: MobileScreen; params: Record<string, string> } | undefined;
  for (const screen of screens) {
    const params = matchPath(screen.path, path);
    if (!params || (user && screen.allowed && !screen.allowed(user))) continue;
    if (!best || Object.keys(params).length < Object.keys(best.params).length) best = { screen, params };
  }
  return best ?? { screen: screens[0], params: {} };
}
