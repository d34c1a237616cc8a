import fs from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/server/db/database.js';
import { migrate } from '../../src/server/db/migrate.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A dump of an embedded database with every migration applied: test apps start from a copy. */
    pgliteTemplate: string;
    /** This run's folder for more dumps (the demo data, seeded once per configuration: createDemoTestApp). */
    pgliteRunDir: string;
  }
}

/**
 * globalSetup of the api-pglite project: initdb and the migrations once per run, not once per test app
 * (together they were most of the seconds each of the ~60 test apps took to start).
 */
export default async function setup(project: TestProject) {
  const database = await openDatabase({});
  await migrate(database);
  const dump = await database.dump!();
  await database.close();
  // One folder per run: two runs in one checkout keep their dumps apart.
  const dir = path.resolve(`.tmp/pglite-run-${process.pid}`);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'template.tar');
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', file);
  project.provide('pgliteRunDir', dir);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
