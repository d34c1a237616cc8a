import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { AppConfig } from '../config.js';
import type { Database } from '../db/database.js';
import { hashPassword } from '../core/passwords.js';
import { sql } from 'kysely';
import { demoSeeders, type DemoSeeder } from './demo.js';

export interface SeedContext {
  database: Database;
  config: AppConfig;
  log: FastifyBaseLogger;
  /** The app, when seeding runs beside one (demo to-dos need its workflow engine). */
  app?: FastifyInstance;
}

const INITIALISED_KEY = 'initialised_at';
/** Written before the first start seeds anything; a start that finds it without INITIALISED_KEY died seeding. */
const INITIALISING_KEY = 'initialising_since';

/**
 * First start of an empty database: create the administrator `admin` (password ADMIN_PASSWORD or the
 * demo password) and, unless DEMO_DATA=false, the demo data. Later starts do nothing here.
 * Returns true when this start initialised the database.
 */
export async function initialiseDatabase(ctx: SeedContext, seeders: DemoSeeder[] = demoSeeders): Promise<boolean> {
  const { db } = ctx.database;
  const done = await db.selectFrom('app_meta').select('key').where('key', '=', INITIALISED_KEY).executeTakeFirst();
  if (done) return false;
  await db
    .insertInto('app_meta')
    .values({ key: INITIALISING_KEY, value: JSON.stringify({ at: new Date().toISOString(), demoData: ctx.config.demoData }) })
    .onConflict((oc) => oc.column('key').doUpdateSet((eb) => ({ value: eb.ref('excluded.value') })))
    .execute();
  const admin = await db
    .insertInto('users')
    .values({ username: 'admin', nick_name: '系统管理员', password_hash: await hashPassword(ctx.config.adminPassword), password_weak: false })
    .onConflict((oc) => oc.column('username').doUpdateSet({ username: 'admin' }))
    .returning('id')
    .executeTakeFirstOrThrow();
  const superRole = await db.selectFrom('roles').select('id').where('code', '=', 'admin').executeTakeFirstOrThrow();
  await db.insertInto('user_roles').values({ user_id: admin.id, role_id: superRole.id }).onConflict((oc) => oc.doNothing()).execute();
  if (ctx.config.demoData) {
    for (const seeder of seeders) {
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

/**
 * A first start that died while seeding the demo data (killed, out of memory, a failing seeder) left part
 * of it, and the seeders cannot continue from an unknown point. Such a database never finished its first
 * start, so it holds nothing but that partial demo: its schema is emptied and the caller migrates it again,
 * after which the first start runs anew. Without demo data a first start only creates the administrator,
 * which is idempotent, so nothing is discarded. Returns true when the schema was emptied.
 */
export async function discardUnfinishedDemo(database: Database): Promise<boolean> {
  const rows = await database.db.selectFrom('app_meta').select(['key', 'value']).where('key', 'in', [INITIALISING_KEY, INITIALISED_KEY]).execute();
  const started = rows.find((r) => r.key === INITIALISING_KEY);
  if (!started || rows.some((r) => r.key === INITIALISED_KEY)) return false;
  if (!(started.value as { demoData?: boolean }).demoData) return false;
  await sql`DROP SCHEMA public CASCADE`.execute(database.db);
  await sql`CREATE SCHEMA public`.execute(database.db);
  return true;
}
