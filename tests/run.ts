/**
 * `npm test`: checks the machine has what the tests need (one line each when not), builds the web app and
 * the server (so no two test projects build them at once), runs every vitest project (unit, API on PGlite and PostgreSQL, browser) and ends with "N passed, N failed".
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureServerBuilt } from '../src/server/server-build.js';
import { ensureWebBuilt } from '../src/server/web-build.js';
import { missingPrerequisites } from './support/prerequisites.js';

const missing = missingPrerequisites();
if (missing.length) {
  for (const line of missing) console.error(line);
  console.log('0 passed, 1 failed');
  process.exit(1);
}

// Type errors fail the run like a failing test (TypeScript 7 checks the whole project in seconds).
const typecheck = spawnSync('npx', ['tsc', '--noEmit', '-p', 'tsconfig.json'], { stdio: 'inherit' });
if (typecheck.status !== 0) console.error('Type check failed (npm run typecheck).');

await ensureWebBuilt();
await ensureServerBuilt();

// With no arguments the browser project runs after the others: on a 2-core machine the API projects'
// parallel workers would otherwise starve the one browser and its server, and the browser tests' waits
// would time out on a loaded machine rather than on a broken page. Arguments run one vitest as given.
const phases = process.argv.length > 2
  ? [process.argv.slice(2)]
  : [['--project', 'unit', '--project', 'web', '--project', 'api-pglite', '--project', 'api-postgres'], ['--project', 'e2e']];

let passed = 0;
let failed = 0;
let skipped = 0;
let runFailed = false;
for (const [i, phase] of phases.entries()) {
  // One report per run and phase: two runs in one checkout do not read each other's.
  const reportFile = path.resolve(`.tmp/vitest-report-${process.pid}-${i}.json`);
  fs.mkdirSync(path.dirname(reportFile), { recursive: true });
  fs.rmSync(reportFile, { force: true });
  const args = ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${reportFile}`, ...phase];
  const started = Date.now();
  const run = spawnSync('npx', args, { stdio: 'inherit' });
  if (run.status !== 0) runFailed = true;
  if (fs.existsSync(reportFile)) {
    const report = JSON.parse(fs.readFileSync(reportFile, 'utf8')) as {
      numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number; numFailedTestSuites: number;
      testResults: { name: string; startTime: number; endTime: number }[];
    };
    // The phase's time and its slowest files, for CI's notes (the suite's budget is 30 minutes).
    const slowest = [...report.testResults].sort((a, b) => b.endTime - b.startTime - (a.endTime - a.startTime)).slice(0, 10);
    console.log(`Phase ${i + 1} (${phase.join(' ')}): ${((Date.now() - started) / 60_000).toFixed(1)} min; slowest files:`);
    for (const f of slowest) console.log(`  ${((f.endTime - f.startTime) / 1000).toFixed(1).padStart(6)} s  ${path.relative(process.cwd(), f.name)}`);
    passed += report.numPassedTests;
    failed += report.numFailedTests + (report.numFailedTests === 0 && run.status !== 0 ? Math.max(report.numFailedTestSuites, 1) : 0);
    skipped += report.numPendingTests + report.numTodoTests;
    fs.rmSync(reportFile, { force: true });
  } else if (run.status !== 0) {
    failed += 1;
  }
}
if (passed === 0 && failed === 0) failed = 1; // a run that ran no test is not a pass
if (typecheck.status !== 0) failed += 1;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || runFailed ? 1 : 0);
