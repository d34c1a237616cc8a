import fs from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

// semver comes with fastify; its range grammar is what npm checks `engines` with.
const semver = createRequire(import.meta.url)('semver') as { satisfies(version: string, range: string): boolean; minVersion(range: string): { version: string } };

const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, { version?: string; engines?: { node?: string } | string[] }> };

describe('Node version (issue 13 item 11)', () => {
  it('every locked dependency runs on the oldest Node that package.json accepts, so `npm ci` warns of no engine', () => {
    const oldest = semver.minVersion(pkg.engines.node).version;
    expect(oldest.startsWith('20.')).toBe(true); // the CI image's Node 20
    const refused = Object.entries(lock.packages)
      .filter(([name, p]) => name && p.engines && !Array.isArray(p.engines) && p.engines.node && !semver.satisfies(oldest, p.engines.node))
      .map(([name, p]) => `${name.replace(/^.*node_modules\//, '')}@${p.version} wants node ${(p.engines as { node: string }).node}`);
    expect(refused).toEqual([]);
  });

  it('this machine runs a Node that package.json accepts', () => {
    expect(semver.satisfies(process.versions.node, pkg.engines.node)).toBe(true);
  });
});
