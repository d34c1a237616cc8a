/**
 * `npm start` (with --web) and `npm run serve`: brings dist/server (with --web also dist/web) up to date
 * in a short-lived TypeScript process, then runs the compiled server in this one, so the long-running
 * server carries no TypeScript loader. Plain JavaScript: on a fresh checkout nothing is compiled yet.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const build = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build-server.ts', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
const { main } = await import('../dist/server/main.js');
await main();
