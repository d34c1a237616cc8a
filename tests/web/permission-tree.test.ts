import { describe, expect, it } from 'vitest';
import { checkState, toggle, type PermissionNode } from '../../src/web/pages/system/roles/permission-tree';

const node = (key: string, type: PermissionNode['type'], permission: string | null, children?: PermissionNode[]): PermissionNode => ({
  id: key.length,
  key,
  type,
  title: key,
  permission,
  children,
});

// system (directory) > users (page, users:list) > add (button, users:add); system > online (page, online:list)
const tree = [
  node('system', 'directory', null, [node('users', 'page', 'users:list', [node('users-add', 'button', 'users:add')]), node('online', 'page', 'online:list')]),
];

describe('the role editor permission tree', () => {
  it('ticking a button grants it and its page, not the sibling page', () => {
    const granted = toggle(tree, new Set(), 'users-add', true);
    expect([...granted].sort()).toEqual(['users:add', 'users:list']);
    expect(checkState(tree, granted)).toEqual({ checked: ['users-add', 'users'], halfChecked: ['system'] });
  });

  it('ticking a directory grants everything below; unticking a page revokes its buttons and keeps the rest', () => {
    const all = toggle(tree, new Set(['member:list']), 'system', true);
    expect([...all].sort()).toEqual(['member:list', 'online:list', 'users:add', 'users:list']);
    expect(checkState(tree, all).checked).toContain('system');
    const less = toggle(tree, all, 'users', false);
    expect([...less].sort()).toEqual(['member:list', 'online:list']);
    expect(checkState(tree, less)).toEqual({ checked: ['online'], halfChecked: ['system'] });
  });

  it('an unknown key changes nothing', () => {
    expect([...toggle(tree, new Set(['x:y']), 'nope', true)]).toEqual(['x:y']);
  });
});
