/**
 * Where a server's CPU time went: reads a V8 `.cpuprofile` (`node --cpu-prof`) of the compiled server and
 * sums self time by area (the server's own code through its source map, by source file; packages by
 * name; Node's internals; GC), plus the inclusive time of the request steps named in STEPS.
 * `node --import tsx tests/bench/cpu-profile.ts <file.cpuprofile>`; `npm run bench api` calls it with
 * BENCH_API_PROFILE=1.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SourceMapConsumer, type RawSourceMap } from 'source-map-js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Request steps whose inclusive time is reported (function names in the server's sources or packages). */
const STEPS: [string, RegExp][] = [
  ['session lookup (SessionService.resolve)', /^resolve$/],
  ['list (RecordService.list, sync part)', /^list$/],
  ['decorate (labels, names, computed)', /^decorate$/],
  ['Kysely compile', /^compileQuery$/],
  ['JSON serialisation', /^(serialize|stringify|default_serializer|serializeJSON)$/],
  ['pino logging', /^(write|asJson|LOG|_write|writeSync|flushSync)$/],
];

function areaOfPackage(url: string): string | undefined {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (!m) return undefined;
  const name = m[1];
  if (/^(pg|pg-protocol|pg-pool|pg-types|postgres-[a-z]+|pgpass|buffer-writer|packet-reader)$/.test(name)) return 'pg driver';
  if (/^(pino|sonic-boom|pino-std-serializers|thread-stream|on-exit-leak-free|atomic-sleep|quick-format-unescaped|fast-redact|safe-stable-stringify)$/.test(name)) return 'logging (pino)';
  if (/^(fastify|find-my-way|avvio|@fastify\/.*|fast-json-stringify|light-my-request|secure-json-parse|fast-querystring|toad-cache|rfdc|abstract-logging|process-warning|@fastify\/error)$/.test(name)) return `fastify (${name})`;
  if (name === 'kysely') return 'kysely';
  if (name === '@electric-sql/pglite') return 'PGlite';
  return `package ${name}`;
}

export function breakdown(profileFile: string): { areas: [string, number][]; steps: [string, number][]; totalMs: number } {
  const profile = JSON.parse(fs.readFileSync(profileFile, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));

  const maps = new Map<string, SourceMapConsumer | null>();
  const sourceOf = (url: string, line: number, column: number): string | undefined => {
    if (!url.startsWith('file://') || url.includes('node_modules')) return undefined;
    const file = fileURLToPath(url);
    if (!maps.has(file)) maps.set(file, fs.existsSync(`${file}.map`) ? new SourceMapConsumer(JSON.parse(fs.readFileSync(`${file}.map`, 'utf8')) as RawSourceMap) : null);
    const map = maps.get(file);
    if (!map) return path.basename(file);
    const pos = map.originalPositionFor({ line: line + 1, column });
    return pos.source ? pos.source.replace(/^(\.\.\/)+/, '') : path.basename(file);
  };

  const areaOf = (node: ProfileNode): string => {
    const { url, functionName, lineNumber, columnNumber } = node.callFrame;
    if (!url) {
      if (functionName === '(garbage collector)') return 'GC';
      if (functionName === '(idle)') return 'idle';
      if (functionName === '(program)') return 'V8/native (program)';
      return `native ${functionName || '(anonymous)'}`;
    }
    if (url.startsWith('node:')) {
      const mod = url.slice(5).split('/').slice(0, 2).join('/');
      return `node ${mod}`;
    }
    return areaOfPackage(url) ?? `src ${sourceOf(url, lineNumber, columnNumber) ?? url}`;
  };

  const areas = new Map<string, number>();
  let total = 0;
  for (const [id, us] of self) {
    const area = areaOf(byId.get(id)!);
    areas.set(area, (areas.get(area) ?? 0) + us);
    if (area !== 'idle') total += us;
  }
  // Inclusive time of the named steps: every sample whose stack holds such a frame counts once per step.
  const steps = new Map<string, number>();
  for (const [id, us] of self) {
    const seen = new Set<string>();
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
      const name = byId.get(n)!.callFrame.functionName;
      for (const [label, re] of STEPS) if (re.test(name) && !seen.has(label)) seen.add(label);
    }
    for (const label of seen) steps.set(label, (steps.get(label) ?? 0) + us);
  }
  areas.delete('idle');
  const sorted = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, v / 1000] as [string, number]);
  return { areas: sorted(areas), steps: sorted(steps), totalMs: total / 1000 };
}

export function printBreakdown(profileFile: string, requests?: number): void {
  const { areas, steps, totalMs } = breakdown(profileFile);
  const per = (ms: number) => (requests ? ` ${((ms * 1000) / requests).toFixed(0).padStart(5)} µs/req` : '');
  console.log(`CPU time (not idle): ${totalMs.toFixed(0)} ms${requests ? ` for ${requests} requests (${((totalMs * 1000) / requests).toFixed(0)} µs/req)` : ''}`);
  for (const [area, ms] of areas.filter(([, ms]) => ms / totalMs >= 0.005)) console.log(`  ${((ms / totalMs) * 100).toFixed(1).padStart(5)}%${per(ms)}  ${area}`);
  console.log('inclusive (synchronous part of each step):');
  for (const [step, ms] of steps) console.log(`  ${((ms / totalMs) * 100).toFixed(1).padStart(5)}%${per(ms)}  ${step}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  printBreakdown(process.argv[2], process.argv[3] ? Number(process.argv[3]) : undefined);
}
