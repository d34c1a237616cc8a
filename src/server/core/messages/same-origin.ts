import type { FastifyRequest } from 'fastify';
import { HttpError } from '../../errors.js';

/**
 * Browsers send the page's Origin with a websocket upgrade but apply no same-origin policy to it, so the
 * server must: only pages of this site may open the push channel (defence in depth should a token ever
 * reach another site). No Origin means a non-browser client, which has to hold the token anyway. The
 * site's own host is the Host header (X-Forwarded-Host when it comes from a trusted proxy).
 */
export function isSameOrigin(req: FastifyRequest): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  try {
    return new URL(origin).host.toLowerCase() === req.host.toLowerCase();
  } catch {
    return false; // "null" (sandboxed frames, file://) and anything unparsable
  }
}

export async function assertSameOrigin(req: FastifyRequest): Promise<void> {
  if (!isSameOrigin(req)) throw new HttpError(403, '不允许从其他网站建立连接');
}
