/**
 * Issue 25.10: a code a client sends is looked up in a constant map by own keys only (src/shared/own.ts).
 * `kind in DeferralKindLabel` let `constructor` through and the write failed with a 500. This test keeps
 * the pattern out of the server and shared sources: no `<key> in <ConstantMap>`, and no `MAP[key]` on a
 * constant declared as `Record<string, …>` (a map promising any string); both go through hasOwn/ownValue.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasOwn, isInheritedName, ownValue } from '../../src/shared/own.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** Seeds build demo data from their own constants; nothing a client sends reaches them. */
const SKIP = [path.join('src', 'server', 'seed')];

function sources(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (SKIP.some((s) => rel.startsWith(s))) return [];
    if (e.isDirectory()) return sources(rel);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [rel] : [];
  });
}

/** Code only: comments and string/template literal contents blanked, line breaks kept. */
function code(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '))
    .replace(/(^|[^:])\/\/.*$/gm, '$1')
    .replace(/'(?:[^'\\\n]|\\.)*'/g, "''");
}

/** `key in Map`: an `in` whose right side is a constant-like name (capitalised), not `for (… in …)`. */
const IN_CONSTANT = /(?<!for\s*\((?:const|let|var)\s+\w+\s)\bin\s+([A-Z][A-Za-z0-9_]*)\b(?!\s*\.)/g;
const RECORD_CONSTANT = /\bconst\s+([A-Z][A-Za-z0-9_]*)\s*:\s*(?:Readonly<\s*)?Record<\s*string\s*,/g;

export function findOwnLookupProblems(files: { file: string; text: string }[]): string[] {
  const stripped = files.map((f) => ({ ...f, code: code(f.text) }));
  const maps = new Set(stripped.flatMap((f) => [...f.code.matchAll(RECORD_CONSTANT)].map((m) => m[1])));
  const problems: string[] = [];
  for (const f of stripped) {
    f.code.split('\n').forEach((line, i) => {
      for (const m of line.matchAll(IN_CONSTANT)) problems.push(`${f.file}:${i + 1}: "in ${m[1]}" (use hasOwn)`);
      for (const name of maps) {
        if (new RegExp(`\\b${name}\\[(?!\\s*'')`).test(line)) problems.push(`${f.file}:${i + 1}: ${name}[…] (use ownValue)`);
      }
    });
  }
  return problems;
}

describe('own-property look-ups of client codes (issue 25.10)', () => {
  it('hasOwn and ownValue see only own keys: constructor, toString, __proto__, hasOwnProperty are not codes', () => {
    const labels = { approved: '经批准缓交', hardship: '生活困难' };
    for (const crafted of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) {
      expect(hasOwn(labels, crafted)).toBe(false);
      expect(ownValue(labels, crafted)).toBeUndefined();
      expect(isInheritedName(crafted)).toBe(true);
    }
    expect(hasOwn(labels, 'approved')).toBe(true);
    expect(ownValue(labels, 'hardship')).toBe('生活困难');
    expect(hasOwn({ 1: 'a' }, 1)).toBe(true);
    expect(hasOwn(labels, { toString: () => 'approved' })).toBe(false);
    expect(isInheritedName('approved')).toBe(false);
  });

  it('the scan finds "in <Map>" and Record<string> map[key], and passes own look-ups', () => {
    const bad = [
      "const L: Readonly<Record<string, string>> = { a: 'x' };",
      'if (!(kind in DeferralKindLabel)) throw new Error();',
      'const v = L[kind];',
    ].join('\n');
    const good = [
      "const M: Record<string, string> = { a: 'x' };",
      'if (!hasOwn(DeferralKindLabel, kind)) throw new Error();',
      "for (const k in Things) count++; // a loop, not a look-up",
      "const fixed = M['a']; const text = 'key in Labels';",
      '// kind in DeferralKindLabel (a comment)',
    ].join('\n');
    expect(findOwnLookupProblems([{ file: 'bad.ts', text: bad }])).toEqual(['bad.ts:2: "in DeferralKindLabel" (use hasOwn)', 'bad.ts:3: L[…] (use ownValue)']);
    expect(findOwnLookupProblems([{ file: 'good.ts', text: good }])).toEqual([]);
  });

  it('[25.10] no source of the server or shared code looks a code up through inherited members', () => {
    const files = [...sources('src/server'), ...sources('src/shared')].map((file) => ({ file, text: fs.readFileSync(path.join(ROOT, file), 'utf8') }));
    expect(files.length).toBeGreaterThan(100);
    expect(findOwnLookupProblems(files)).toEqual([]);
  });
});
