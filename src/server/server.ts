import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildOptions } from './app.js';
import type { AppConfig } from './config.js';
import { openDatabase } from './db/database.js';
import { migrate } from './db/migrate.js';
import { discardUnfinishedDemo, initialiseDatabase } from './seed/index.js';

export interface Started {
  app: FastifyInstance;
  url: string;
  /** True when this start created the administrator (and the demo data). */
  initialised: boolean;
  migrationsApplied: string[];
}

/** Opens the database, migrates it, initialises it on first start, builds the app and listens. */
export async function startServer(config: AppConfig, extra: Partial<BuildOptions> = {}): Promise<Started> {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, idleTransactionTimeoutS: config.dbIdleTransactionTimeoutS });
  let app: FastifyInstance | undefined;
  try {
    let migrationsApplied = await migrate(database);
    const discarded = await discardUnfinishedDemo(database);
    if (discarded) migrationsApplied = await migrate(database);
    app = await buildApp({ config, database, ...extra });
    if (discarded) app.log.warn('the first start died while seeding the demo data: its partial data was discarded and the first start runs again');
    const initialised = await initialiseDatabase({ database, config, log: app.log, app });
    // Demo data is written around the runtime: give its names their sort keys.
    if (initialised) {
      await app.runtime.fillSortKeys();
      // The demo's records were written around the runtime: their reminders now, not at the first daily run.
      await app.runtime.reminders.run();
    }
    await app.listen({ port: config.port, host: config.host });
    database.upkeep?.start(app.log);
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
    return { app, url: `http://${host}:${port}`, initialised, migrationsApplied };
  } catch (error) {
    if (app) await app.close();
    else await database.close();
    throw error;
  }
}
