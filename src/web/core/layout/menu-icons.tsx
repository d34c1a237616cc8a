import { FALLBACK_MENU_ICON, isMenuIcon } from '../../../shared/menu-icons';
import spriteUrl from './menu-icons.svg?url';

/**
 * The icon a menu entry names, drawn from the menu icon sprite (see src/shared/menu-icons.ts). It
 * carries antd's `anticon` class, so menus size and colour it like any antd icon.
 */
export function MenuIcon({ name, className }: { name?: string | null; className?: string }) {
  const id = isMenuIcon(name) ? name : FALLBACK_MENU_ICON;
  return (
    <span role="img" aria-label={id} className={`anticon menu-icon${className ? ` ${className}` : ''}`} data-icon={id}>
      <svg width="1em" height="1em" fill="currentColor" aria-hidden="true" focusable="false">
        <use href={`${spriteUrl}#${id}`} />
      </svg>
    </span>
  );
}
