import type { FastifyRequest } from 'fastify';

/** Query parameters whose values are credentials: never written to the log. */
export const SECRET_PARAMS = ['token', 'password', 'vercode', 'sessionId'] as const;

const SECRET_PARAM = new RegExp(`([?&](?:${SECRET_PARAMS.join('|')})=)[^&#\\s'"]*`, 'gi');

/**
 * The text with the values of secret query parameters replaced. Works on a URL and on any message that
 * quotes one (Fastify's own errors name the URL), so a token never reaches the log in readable form.
 */
export function redactSecrets(text: string): string {
  return text.replace(SECRET_PARAM, '$1[REDACTED]');
}

/**
 * Logger serializers: Fastify's own fields for a request (the websocket's `?token=` would otherwise be
 * logged at the default level on every connection), and errors whose message or stack quote a URL.
 */
export const logSerializers = {
  req(req: FastifyRequest) {
    const version = req.headers?.['accept-version'];
    return {
      method: req.method,
      url: redactSecrets(req.url),
      version: Array.isArray(version) ? version[0] : version,
      host: req.host,
      remoteAddress: req.ip,
      remotePort: req.socket?.remotePort,
    };
  },
  err(error: Error & { code?: unknown; statusCode?: unknown }) {
    if (!(error instanceof Error)) return error;
    return {
      type: error.constructor.name,
      message: redactSecrets(error.message),
      stack: redactSecrets(error.stack ?? ''),
      ...(error.code !== undefined ? { code: error.code } : {}),
      ...(error.statusCode !== undefined ? { statusCode: error.statusCode } : {}),
    };
  },
};
