import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ALLOWED_IMPORTS, LAYER_RULES, describeBreach, layerBreaches, sourceImports, specifiersOf } from '../../generators/lib/layers.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

// Each reads the whole source tree (seconds on a loaded 2-core machine).
describe('one-way layers (DESIGN §8)', { timeout: 60_000 }, () => {
  it('no source file under src/ imports across a layer rule', () => {
    const breaches = layerBreaches(ROOT);
    expect(breaches.map(describeBreach)).toEqual([]);
  });

  it('reads the real tree: thousands of imports, every relative one resolved to a file', () => {
    const imports = sourceImports(ROOT);
    expect(imports.length).toBeGreaterThan(1000);
    // The composition roots are where the layers meet.
    expect(imports).toContainEqual(expect.objectContaining({ file: 'src/server/app.ts', target: 'src/server/runtime/index.ts' }));
    expect(imports).toContainEqual(expect.objectContaining({ file: 'src/web/app/resolve-page.tsx', target: 'src/web/renderer/ModulePage.tsx' }));
  });

  it('has no allowed exceptions left (issue 12 moved spreadsheet reading below core); any added later is still used', () => {
    expect(ALLOWED_IMPORTS.map((a) => `${a.file} -> ${a.target}`)).toEqual([]);
    const imports = sourceImports(ROOT);
    for (const a of ALLOWED_IMPORTS) expect(imports.some((i) => i.file === a.file && i.target === a.target), `${a.file} -> ${a.target} is gone: drop it from ALLOWED_IMPORTS`).toBe(true);
  });
});

describe('the layer check itself (a fixture tree with forbidden imports)', () => {
  let dir: string;
  const write = (file: string, code: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), code);
  };
  const fixture = () => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dangjian-layers-')));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('finds one breach for every forbidden target of every rule', () => {
    fixture();
    let expected = 0;
    for (const [i, rule] of LAYER_RULES.entries()) {
      const lines: string[] = [];
      for (const [j, forbidden] of rule.forbid.entries()) {
        const target = forbidden.endsWith('/') ? `${forbidden}target${i}_${j}.ts` : forbidden;
        if (!fs.existsSync(path.join(dir, target))) write(target, 'export const x = 1;\n');
        const specifier = path.posix.relative(path.posix.dirname(`${rule.from}rule${i}.ts`), target).replace(/\.tsx?$/, '.js');
        lines.push(`import { x as x${j} } from '${specifier.startsWith('.') ? specifier : `./${specifier}`}';`);
        expected++;
      }
      write(`${rule.from}rule${i}.ts`, `${lines.join('\n')}\n`);
    }
    const breaches = layerBreaches(dir);
    expect(breaches).toHaveLength(expected);
    for (const [i, rule] of LAYER_RULES.entries()) expect(breaches.filter((b) => b.file === `${rule.from}rule${i}.ts`).every((b) => b.rule === rule)).toBe(true);
  });

  it('counts type-only imports, re-exports, dynamic imports, import types and module augmentations; not comments or strings', () => {
    fixture();
    write('src/server/runtime/index.ts', 'export class Runtime {}\n');
    write(
      'src/server/core/services.ts',
      [
        "import type { Runtime } from '../runtime/index.js';",
        "export type { Runtime as R } from '../runtime/index.js';",
        "export * from '../runtime';",
        "const load = () => import('../runtime/index.js');",
        "type T = import('../runtime/index.js').Runtime;",
        "declare module '../runtime/index.js' { interface Extra { a: 1 } }",
        "// import('../runtime/index.js')",
        "/* import x from '../runtime/index.js'; */",
        "const text = \"import('../runtime/index.js')\";",
        'const re = /[\'"]/;',
        '',
      ].join('\n'),
    );
    const breaches = layerBreaches(dir);
    expect(breaches.map((b) => b.line)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(describeBreach(breaches[0])).toBe('src/server/core/services.ts:1 imports ../runtime/index.js (src/server/runtime/index.ts): server/core never imports the runtime or the domain');
  });

  it('allowed imports cover exactly their file and target: another runtime import in the same file is a breach', () => {
    fixture();
    write('src/server/runtime/cells.ts', 'export const a = 1;\n');
    write('src/server/runtime/import.ts', 'export const b = 1;\n');
    write('src/server/runtime/records.ts', 'export const c = 1;\n');
    write('src/server/core/users/import.ts', "import { a } from '../../runtime/cells.js';\nimport { b } from '../../runtime/import.js';\nimport { c } from '../../runtime/records.js';\n");
    write('src/server/core/users/routes.ts', "import { a } from '../../runtime/cells.js';\n");
    const allowed = ['cells', 'import'].map((name) => ({ file: 'src/server/core/users/import.ts', target: `src/server/runtime/${name}.ts`, reason: 'fixture' }));
    const breaches = layerBreaches(dir, LAYER_RULES, allowed);
    expect(breaches.map((b) => `${b.file}:${b.line}`)).toEqual(['src/server/core/users/import.ts:3', 'src/server/core/users/routes.ts:1']);
  });

  it('a relative import that names no file stops the check instead of being skipped', () => {
    fixture();
    write('src/web/core/a.ts', "import { x } from '../renderer/missing.js';\n");
    expect(() => layerBreaches(dir)).toThrow(/cannot resolve "..\/renderer\/missing.js"/);
  });

  it('reads JSX files with the TSX grammar', () => {
    expect(specifiersOf('a.tsx', "import { A } from './a';\nexport const B = () => <A x={import('./b')} />;\n").map((s) => s.specifier)).toEqual(['./a', './b']);
  });
});
