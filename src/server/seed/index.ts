import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { AppConfig } from '../config.js';
import type { Database } from '../db/database.js';
import { hashPassword } from '../core/passwords.js';
import { demoSeeders } from './demo.js';

export interface SeedContext {
  database: Database;
  config: AppConfig;
  log: FastifyBaseLogger;
  /** The app, when seeding runs beside one (demo to-dos need its workflow engine). */
  app?: FastifyInstance;
}

const INITIALISED_KEY = 'initialised_at';

/**
 * First start of an empty database: create the administrator `admin` (password ADMIN_PASSWORD or the
 * demo password) and, unless DEMO_DATA=false, the demo data. Later starts do nothing here.
 * Returns true when this start initialised the database.
 */
export async function initialiseDatabase(ctx: SeedContext): Promise<boolean> {
  const { db } = ctx.database;
  const done = await db.selectFrom('app_meta').select('key').where('key', '=', INITIALISED_KEY).executeTakeFirst();
  if (done) return false;
  const admin = await db
    .insertInto('users')
    .values({ username: 'admin', nick_name: '系统管理员', password_hash: await hashPassword(ctx.config.adminPassword), password_weak: false })
    .onConflict((oc) => oc.column('username').doUpdateSet({ username: 'admin' }))
    .returning('id')
    .executeTakeFirstOrThrow();
  const superRole = await db.selectFrom('roles').select('id').where('code', '=', 'admin').executeTakeFirstOrThrow();
  await db.insertInto('user_roles').values({ user_id: admin.id, role_id: superRole.id }).onConflict((oc) => oc.doNothing()).execute();
  if (ctx.config.demoData) {
    for (const seeder of demoSeeders) {
      ctx.log.info({ seeder: seeder.name }, 'seeding demo data');
      await seeder.run(ctx);
    }
  }
  await db
    .insertInto('app_meta')
    .values({ key: INITIALISED_KEY, value: JSON.stringify({ at: new Date().toISOString(), demoData: ctx.config.demoData }) })
    .execute();
  return true;
}
