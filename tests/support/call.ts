import type { FastifyInstance } from 'fastify';
import { bearer } from './auth.js';

/** A request through the real HTTP layer (`inject`), answered as status and parsed body. */
export type Call = (method: string, url: string, payload?: unknown, token?: string) => Promise<{ status: number; body: any }>;

export function caller(app: FastifyInstance, defaultToken: () => string): Call {
  return async (method, url, payload, token) => {
    const res = await app.inject({ method: method as never, url, headers: bearer(token ?? defaultToken()), ...(payload !== undefined ? { payload: payload as never } : {}) });
    let body: unknown = res.body;
    try {
      body = res.json();
    } catch {
      // not JSON (a spreadsheet)
    }
    return { status: res.statusCode, body };
  };
}
