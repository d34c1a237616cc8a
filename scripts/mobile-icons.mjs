/**
 * Draws the mobile terminal's PNG icons (issue 31) into src/web/public/icons/: 192 and 512 px, maskable (the
 * star inside the central safe circle, the red to every edge, so a launcher may crop any shape). Run again only
 * when the mark changes: `node scripts/mobile-icons.mjs` (uses Debian's Chromium, as the tests do).
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

const out = path.resolve(import.meta.dirname, '../src/web/public/icons');
// The favicon's star, scaled to 60% of the square (the maskable safe zone is the central 80% circle).
const svg = (size) => `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 64 64">
  <rect width="64" height="64" fill="#c8161d"/>
  <g transform="translate(32 31.5) scale(1.1) translate(-32 -30.25)"><path d="M32 14l4.7 11.5 12.3.9-9.4 8 2.9 12.1L32 40l-10.5 6.5 2.9-12.1-9.4-8 12.3-.9z" fill="#ffd700"/></g>
</svg>`;

fs.mkdirSync(out, { recursive: true });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  for (const size of [192, 512]) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    await page.setContent(`<html><body style="margin:0">${svg(size)}</body></html>`);
    await page.locator('svg').screenshot({ path: path.join(out, `icon-${size}.png`), omitBackground: false });
    await page.close();
  }
} finally {
  await browser.close();
}
