import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import vitestConfig from '../../vitest.config.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const scripts = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
const projects = (vitestConfig.test?.projects as { test: { name: string } }[]).map((p) => p.test.name);

describe('every command the README names exists', () => {
  it('npm scripts: `npm run x` and the `test:*` shorthands of the commands table', () => {
    const named = new Set([...readme.matchAll(/npm run ([\w:-]+)/g)].map((m) => m[1]));
    for (const m of readme.matchAll(/`(test:[\w-]+)`/g)) named.add(m[1]);
    expect(named.size).toBeGreaterThan(8);
    for (const name of named) expect(scripts[name], `npm run ${name}`).toBeDefined();
    for (const name of ['start', 'test']) expect(readme).toContain(`npm ${name}`);
  });

  it('vitest projects named by the README and by the scripts', () => {
    const named = [...readme.matchAll(/--project ([\w-]+)/g), ...Object.values(scripts).flatMap((s) => [...s.matchAll(/--project ([\w-]+)/g)])].map((m) => m[1]);
    expect(named.length).toBeGreaterThan(3);
    for (const name of named) expect(projects, `--project ${name}`).toContain(name);
  });
});
