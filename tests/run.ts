/**
 * `npm test`: checks the machine has what the tests need (one line each when not), builds the web app and
 * the server (so no two test projects build them at once), runs every vitest project (unit, API on PGlite and PostgreSQL, browser) and ends with "N passed, N failed".
 */
import { spawn, spawnSync } from 'node:child_process';
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

/**
 * With no arguments: the unit, web and PGlite API projects first (two workers), then the browser project
 * with the PostgreSQL API project beside it at the lowest CPU priority (nice 19, one worker). On a 2-core
 * machine the browser, its server and the test runner leave part of the CPU idle; the niced run takes only
 * that, so the browser tests' waits see an unloaded machine (API workers at normal priority starved the one
 * browser and its server, and its waits timed out on a loaded machine rather than on a broken page). The
 * niced run's output is printed after the browser phase's. Arguments run one vitest as given.
 */
interface Phase {
  args: string[];
  /** Runs at the same time, niced, its output held until the phase ends. */
  beside?: string[];
}
const phases: Phase[] = process.argv.length > 2
  ? [{ args: process.argv.slice(2) }]
  : [
      { args: ['--project', 'unit', '--project', 'web', '--project', 'api-pglite'] },
      { args: ['--project', 'e2e'], beside: ['--project', 'api-postgres', '--maxWorkers=1'] },
    ];

interface Report {
  numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number; numFailedTestSuites: number;
  testResults: { name: string; startTime: number; endTime: number }[];
}

let passed = 0;
let failed = 0;
let skipped = 0;
let runFailed = false;
let runs = 0;

/** One vitest run with its JSON report; `held`: niced, its output kept in a file and printed when asked. */
function startVitest(args: string[], held: boolean) {
  // One report per run: two runs in one checkout do not read each other's.
  const id = `${process.pid}-${runs++}`;
  const reportFile = path.resolve(`.tmp/vitest-report-${id}.json`);
  const logFile = path.resolve(`.tmp/vitest-output-${id}.log`);
  fs.mkdirSync(path.dirname(reportFile), { recursive: true });
  fs.rmSync(reportFile, { force: true });
  const vitest = ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${reportFile}`, ...args];
  const out = held ? fs.openSync(logFile, 'w') : 'inherit';
  const child = held
    ? spawn('nice', ['-n', '19', 'npx', ...vitest], { stdio: ['ignore', out, out] })
    : spawn('npx', vitest, { stdio: 'inherit' });
  const started = Date.now();
  const done = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    async finish() {
      const code = await done;
      if (held) {
        fs.closeSync(out as number);
        process.stdout.write(fs.readFileSync(logFile));
        fs.rmSync(logFile, { force: true });
      }
      if (code !== 0) runFailed = true;
      if (!fs.existsSync(reportFile)) {
        if (code !== 0) failed += 1;
        return;
      }
      const report = JSON.parse(fs.readFileSync(reportFile, 'utf8')) as Report;
      // The run's time and its slowest files, for CI's notes (the suite's budget is 30 minutes).
      const slowest = [...report.testResults].sort((a, b) => b.endTime - b.startTime - (a.endTime - a.startTime)).slice(0, 10);
      console.log(`Run (${args.join(' ')}${held ? ', niced beside' : ''}): ${((Date.now() - started) / 60_000).toFixed(1)} min; slowest files:`);
      for (const f of slowest) console.log(`  ${((f.endTime - f.startTime) / 1000).toFixed(1).padStart(6)} s  ${path.relative(process.cwd(), f.name)}`);
      passed += report.numPassedTests;
      failed += report.numFailedTests + (report.numFailedTests === 0 && code !== 0 ? Math.max(report.numFailedTestSuites, 1) : 0);
      skipped += report.numPendingTests + report.numTodoTests;
      fs.rmSync(reportFile, { force: true });
    },
  };
}

for (const phase of phases) {
  const beside = phase.beside && startVitest(phase.beside, true);
  await startVitest(phase.args, false).finish();
  await beside?.finish();
}
if (passed === 0 && failed === 0) failed = 1; // a run that ran no test is not a pass
if (typecheck.status !== 0) failed += 1;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || runFailed ? 1 : 0);
