/** `npm run bench [suite...]`: runs the benchmark suites, prints a table and writes bench/results.json. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchResult } from './lib.js';
import { apiSuite } from './suites/api.js';
import { cadreAnalysisSuite } from './suites/cadre-analysis.js';
import { cadresSuite } from './suites/cadres.js';
import { duesSuite } from './suites/dues.js';
import { duesMonthEndSuite } from './suites/dues-month-end.js';
import { electionsSuite } from './suites/elections.js';
import { evaluationSuite } from './suites/evaluation.js';
import { examDaySuite } from './suites/exam-day.js';
import { formSuite } from './suites/form.js';
import { formsSuite } from './suites/forms.js';
import { importsSuite } from './suites/imports.js';
import { meetingsSuite } from './suites/meetings.js';
import { mobileSuite } from './suites/mobile.js';
import { membersSuite } from './suites/members.js';
import { pschoolSuite } from './suites/pschool.js';
import { runtimeSuite } from './suites/runtime.js';
import { serverSuite } from './suites/server.js';
import { lifecycleSuite } from './suites/lifecycle.js';
import { statisticsSuite } from './suites/statistics.js';
import { tableSuite } from './suites/table.js';
import { templatesSuite } from './suites/templates.js';
import { webSuite } from './suites/web.js';
import { workflowSuite } from './suites/workflow.js';

const suites: Record<string, () => Promise<BenchResult[]>> = {
  members: membersSuite,
  server: serverSuite,
  web: webSuite,
  runtime: runtimeSuite,
  form: formSuite,
  forms: formsSuite,
  workflow: workflowSuite,
  api: apiSuite,
  dues: duesSuite,
  elections: electionsSuite,
  cadres: cadresSuite,
  'cadre-analysis': cadreAnalysisSuite,
  pschool: pschoolSuite,
  imports: importsSuite,
  table: tableSuite,
  statistics: statisticsSuite,
  lifecycle: lifecycleSuite,
  meetings: meetingsSuite,
  evaluation: evaluationSuite,
  mobile: mobileSuite,
  templates: templatesSuite,
  'exam-day': examDaySuite,
  'dues-month-end': duesMonthEndSuite,
};

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const names = wanted.length ? wanted : Object.keys(suites);
const results: BenchResult[] = [];
for (const name of names) {
  const suite = suites[name];
  if (!suite) {
    console.error(`unknown suite "${name}"; suites: ${Object.keys(suites).join(', ')}`);
    process.exit(1);
  }
  console.error(`running ${name} ...`);
  results.push(...(await suite()));
}

console.table(
  results.map((r) => ({
    suite: r.suite,
    benchmark: r.name,
    value: `${r.value} ${r.unit}`,
    budget: r.budget !== undefined ? `${r.budget} ${r.unit}` : '',
    'within budget': r.budget === undefined ? '' : r.unit.includes('/s') ? r.value >= r.budget : r.value <= r.budget,
    ratio: r.ratio ?? '',
    note: [r.baseline, r.note].filter(Boolean).join('; '),
  })),
);

const file = path.resolve('bench/results.json');
fs.mkdirSync(path.dirname(file), { recursive: true });
const previous = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { results: BenchResult[] }).results : [];
// Keep figures of suites not run this time (or run for a profile only, without figures), replace those that were.
const measured = new Set(results.map((r) => r.suite));
const merged = [...previous.filter((r) => !measured.has(r.suite)), ...results];
fs.writeFileSync(
  file,
  JSON.stringify({ machine: { cpus: os.cpus().length, node: process.version, at: new Date().toISOString() }, results: merged }, null, 2) + '\n',
);
console.error(`wrote ${path.relative(process.cwd(), file)}`);
