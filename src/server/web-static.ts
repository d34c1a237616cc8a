import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { cookieToken } from './core/auth/guard.js';
import { publicUser } from './core/auth/session-user.js';
import { MOBILE_BASE, registerMobileFiles } from './web-mobile.js';

export const WEB_BASE = '/web';

/**
 * Serves the built web app under /web in history mode: a file that exists is sent as is (hashed assets
 * cached for a year); any other /web path without a file extension answers index.html.
 */
export async function registerWebApp(app: FastifyInstance, webDir: string): Promise<void> {
  const indexFile = path.join(webDir, 'index.html');
  const built = fs.existsSync(indexFile);
  app.get('/', (_req, reply) => reply.redirect(`${WEB_BASE}/`));
  app.get(WEB_BASE, (_req, reply) => reply.redirect(`${WEB_BASE}/`));
  registerMobileFiles(app);
  if (!built) {
    app.get(`${WEB_BASE}/*`, (_req, reply) =>
      reply.code(503).type('text/plain; charset=utf-8').send('The web app is not built: run `npm run build`.'),
    );
    return;
  }
  await app.register(fastifyStatic, {
    root: webDir,
    prefix: `${WEB_BASE}/`,
    wildcard: false,
    index: false,
    // The build writes .br and .gz beside each text file (vite.config.ts, precompressed): sent to clients that accept them.
    preCompressed: true,
    setHeaders(reply, filePath) {
      const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
      reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  const sendIndex = (reply: import('fastify').FastifyReply) =>
    reply.header('cache-control', 'no-cache').sendFile('index.html', webDir);
  app.get(`${WEB_BASE}/`, (_req, reply) => sendIndex(reply));
  // The mobile terminal's page (mobile/index.html of the same build) for every path of its own (issue 31).
  // The signed-in user (the session cookie) comes inside the page, a JSON block the app reads instead of asking
  // /auth/info: one round trip less before the first data (2 s under slow 3G).
  const sendMobile = async (req: FastifyRequest, reply: FastifyReply) => {
    let html = await fs.promises.readFile(path.join(webDir, 'mobile', 'index.html'), 'utf8');
    const token = cookieToken(req.headers.cookie);
    const user = token ? await app.services.sessions.resolve(token) : null;
    if (user) html = html.replace('</body>', `<script type="application/json" id="m-session">${JSON.stringify(publicUser(user)).replace(/</g, '\\u003c')}</script></body>`);
    reply.header('cache-control', 'private, no-cache').header('vary', 'accept-encoding, cookie').type('text/html; charset=utf-8');
    if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) return reply.header('content-encoding', 'gzip').send(zlib.gzipSync(html));
    return reply.send(html);
  };
  app.get(MOBILE_BASE, (_req, reply) => reply.redirect(`${MOBILE_BASE}/`));
  app.get(`${MOBILE_BASE}/`, sendMobile);
  app.get(`${MOBILE_BASE}/*`, (req, reply) => {
    const last = ((req.params as { '*': string })['*'].split('/').pop() ?? '');
    return last.includes('.') ? reply.callNotFound() : sendMobile(req, reply);
  });
  app.get(`${WEB_BASE}/*`, (req, reply) => {
    const rest = (req.params as { '*': string })['*'];
    const file = path.join(webDir, rest);
    // Static files first; path.join normalises "..", and the prefix check keeps us inside webDir.
    if (file.startsWith(webDir + path.sep) && fs.existsSync(file) && fs.statSync(file).isFile()) {
      return reply.sendFile(rest, webDir);
    }
    const last = rest.split('/').pop() ?? '';
    if (last.includes('.')) return reply.callNotFound();
    return sendIndex(reply);
  });
}
