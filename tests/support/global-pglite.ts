import fs from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/server/db/database.js';
import { migrate } from '../../src/server/db/migrate.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A dump of an embedded database with every migration applied: test apps start from a copy. */
    pgliteTemplate: string;
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
  const file = path.resolve(`.tmp/pglite-template-${process.pid}.tar`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', file);
  return () => fs.rmSync(file, { force: true });
}
