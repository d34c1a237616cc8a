import { createRequire } from 'node:module';
import path from 'node:path';
import { MENU_ICONS } from '../../src/shared/menu-icons.js';
import { ROOT } from './schemas.js';

export const MENU_ICON_SPRITE_FILE = path.join(ROOT, 'src/web/core/layout/menu-icons.svg');

interface IconNode {
  tag: string;
  attrs: Record<string, string>;
  children?: IconNode[];
}

const require = createRequire(import.meta.url);
const escapeAttr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function render(node: IconNode): string {
  const attrs = Object.entries(node.attrs)
    .filter(([name]) => name !== 'focusable')
    .map(([name, value]) => ` ${name}="${escapeAttr(value)}"`)
    .join('');
  const children = (node.children ?? []).map(render).join('');
  return children ? `<${node.tag}${attrs}>${children}</${node.tag}>` : `<${node.tag}${attrs}/>`;
}

/** One <symbol> per menu icon, with the icon's own id, from the definitions @ant-design/icons draws. */
export function menuIconSprite(): string {
  const symbols = MENU_ICONS.map((name) => {
    const definition = require(`@ant-design/icons-svg/lib/asn/${name}.js`) as { default: { icon: IconNode } };
    const svg = definition.default.icon;
    return `<symbol id="${name}" viewBox="${svg.attrs.viewBox}">${(svg.children ?? []).map(render).join('')}</symbol>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg">\n${symbols.join('\n')}\n</svg>\n`;
}
