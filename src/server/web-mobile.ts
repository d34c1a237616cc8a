import type { FastifyInstance } from 'fastify';

/** Where the mobile terminal lives (issue 31): a second page of the same build, same session and API. */
export const MOBILE_BASE = '/web/m';
const SHELL_CACHE = 'dj-mobile-shell-v1';

/** The web app manifest that makes the mobile terminal installable (a home-screen icon, no browser chrome). */
export const mobileManifest = {
  name: '党建',
  short_name: '党建',
  description: '党员、支部书记和入党申请人的手机端',
  lang: 'zh-CN',
  id: `${MOBILE_BASE}/`,
  start_url: `${MOBILE_BASE}/`,
  scope: `${MOBILE_BASE}/`,
  display: 'standalone',
  orientation: 'portrait',
  background_color: '#ffffff',
  theme_color: '#c8161d',
  // PNGs for launchers without SVG (older Android), maskable: drawn by scripts/mobile-icons.mjs into src/web/public/icons.
  icons: [
    { src: '/web/favicon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
    ...[192, 512].flatMap((n) => ['any', 'maskable'].map((purpose) => ({ src: `/web/icons/icon-${n}.png`, sizes: `${n}x${n}`, type: 'image/png', purpose }))),
  ],
};

/**
 * The service worker keeps only the shell: the page (refreshed on every online visit) and the hashed assets it
 * loaded. Offline, a visit gets the kept shell (which shows 离线) or a small 离线 page; /api is never cached.
 * The page is kept without the session's user the server put in it: a phone shared after a logout must not
 * show the last user offline.
 */
const serviceWorker = `'use strict';
const CACHE = ${JSON.stringify(SHELL_CACHE)};
const SHELL = ${JSON.stringify(`${MOBILE_BASE}/`)};
const OFFLINE = '<!doctype html><html lang="zh-CN"><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>党建</title><body style="font:18px sans-serif;text-align:center;padding-top:30vh;color:#555"><p>离线</p><p style="font-size:14px">网络已断开，恢复后请刷新</p></body></html>';
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (e) => e.waitUntil(
  caches.keys().then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k)))).then(() => self.clients.claim()),
));
const keep = (key, res) => { if (res.ok) { const copy = res.clone(); caches.open(CACHE).then((c) => c.put(key, copy)); } return res; };
const SESSION = /<script type="application\\/json" id="m-session">[\\s\\S]*?<\\/script>/;
const keepShell = (res) => {
  if (res.ok) res.clone().text().then((html) => caches.open(CACHE).then((c) => c.put(SHELL, new Response(html.replace(SESSION, ''), { headers: { 'content-type': 'text/html; charset=utf-8' } }))));
  return res;
};
self.addEventListener('fetch', (e) => {
  const req = e.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (req.mode === 'navigate') {
    e.respondWith(fetch(req).then(keepShell).catch(() => caches.match(SHELL).then((hit) => hit || new Response(OFFLINE, { headers: { 'content-type': 'text/html; charset=utf-8' } }))));
  } else if (url.pathname.startsWith('/web/assets/') || url.pathname === '/web/favicon.svg') {
    e.respondWith(caches.match(req).then((hit) => hit || fetch(req).then((res) => keep(req, res))));
  }
});
`;

/** The manifest and the service worker answer whether or not the page is built (they are made here). */
export function registerMobileFiles(app: FastifyInstance): void {
  app.get(`${MOBILE_BASE}/manifest.webmanifest`, (_req, reply) =>
    reply.header('cache-control', 'no-cache').type('application/manifest+json; charset=utf-8').send(JSON.stringify(mobileManifest)),
  );
  app.get(`${MOBILE_BASE}/sw.js`, (_req, reply) =>
    reply.header('cache-control', 'no-cache').header('service-worker-allowed', `${MOBILE_BASE}/`).type('text/javascript; charset=utf-8').send(serviceWorker),
  );
}
