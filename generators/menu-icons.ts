/** `npm run icons`: writes the sidebar's SVG sprite (src/web/core/layout/menu-icons.svg) from src/shared/menu-icons.ts. */
import fs from 'node:fs';
import path from 'node:path';
import { MENU_ICON_SPRITE_FILE, menuIconSprite } from './lib/menu-icon-sprite.js';
import { ROOT } from './lib/schemas.js';

fs.writeFileSync(MENU_ICON_SPRITE_FILE, menuIconSprite());
console.log(`✓ wrote ${path.relative(ROOT, MENU_ICON_SPRITE_FILE)}`);
