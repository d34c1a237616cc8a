import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
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
    setHeaders(reply, filePath) {
      const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
      reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  const sendIndex = (reply: import('fastify').FastifyReply) =>
    reply.header('cache-control', 'no-cache').sendFile('index.html', webDir);
  app.get(`${WEB_BASE}/`, (_req, reply) => sendIndex(reply));
  // The mobile terminal's page (mobile/index.html of the same build) for every path of its own (issue 31).
  const sendMobile = (reply: import('fastify').FastifyReply) =>
    reply.header('cache-control', 'no-cache').sendFile('mobile/index.html', webDir);
  app.get(MOBILE_BASE, (_req, reply) => reply.redirect(`${MOBILE_BASE}/`));
  app.get(`${MOBILE_BASE}/`, (_req, reply) => sendMobile(reply));
  app.get(`${MOBILE_BASE}/*`, (req, reply) => {
    const last = ((req.params as { '*': string })['*'].split('/').pop() ?? '');
    return last.includes('.') ? reply.callNotFound() : sendMobile(reply);
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
