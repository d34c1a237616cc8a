import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { encryptPassword } from '../../src/server/core/auth/rsa.js';
import { DEMO_ADMIN_PASSWORD } from '../../src/server/config.js';

/** Encrypts a password the way the browser does, with the app's public key. */
export function enc(app: FastifyInstance, plain: string): string {
  return encryptPassword(app.services.keys.publicKey, plain);
}

export async function login(app: FastifyInstance, username = 'admin', password = DEMO_ADMIN_PASSWORD): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/auth/login', payload: { username, password: enc(app, password) } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().token as string;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Creates a role and a user holding it (password set directly), returns the user's id. */
export async function userWithRole(
  app: FastifyInstance,
  adminToken: string,
  opts: { username: string; permissions: string[]; dataScope?: 'all' | 'own' | 'custom'; scopeOrgIds?: number[]; orgId?: number | null; password?: string },
): Promise<number> {
  const role = await app.inject({
    method: 'POST', url: '/api/roles', headers: bearer(adminToken),
    payload: { name: `角色-${opts.username}`, code: `r_${opts.username}`, permissions: opts.permissions, dataScope: opts.dataScope ?? 'all', scopeOrgIds: opts.scopeOrgIds ?? [] },
  });
  expect(role.statusCode, role.body).toBe(201);
  const user = await app.inject({
    method: 'POST', url: '/api/users', headers: bearer(adminToken),
    payload: { username: opts.username, nickName: opts.username, orgId: opts.orgId ?? null, roles: [role.json().id] },
  });
  expect(user.statusCode, user.body).toBe(201);
  const id = user.json().id as number;
  if (opts.password) {
    const { hashPassword } = await import('../../src/server/core/passwords.js');
    await app.services.database.db.updateTable('users').set({ password_hash: await hashPassword(opts.password), password_weak: false }).where('id', '=', id).execute();
  }
  return id;
}
