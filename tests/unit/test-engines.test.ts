import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiTestFiles, engineChoice, postgresApiTests } from '../support/engines.js';

describe('API test files choose their database engines on purpose (docs/architecture.md, Tests)', () => {
  it('every tests/api file declares "// engines: both — <why>" or "// engines: pglite — <why>" in its first lines', () => {
    const files = apiTestFiles();
    expect(files.length).toBeGreaterThan(0);
    const undeclared = files.filter((f) => !f.choice).map((f) => f.file);
    expect(undeclared, 'add an engines line at the top of these files (see docs/architecture.md, Tests)').toEqual([]);
  });

  it('reads the tag only at the top, only with a reason, and only for a known choice', () => {
    expect(engineChoice('// engines: both — concurrent payments\nimport x;')).toBe('both');
    expect(engineChoice('// engines: pglite — permissions only\n')).toBe('pglite');
    expect(engineChoice('// engines: pglite\n')).toBeUndefined();
    expect(engineChoice('// engines: postgres — why\n')).toBeUndefined();
    expect(engineChoice('import x;\n'.repeat(5) + '// engines: both — late\n')).toBeUndefined();
  });

  it('api-postgres runs the files declaring both engines and those declaring nothing, not the PGlite-only ones', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engines-'));
    try {
      fs.mkdirSync(path.join(dir, 'tests', 'api'), { recursive: true });
      const write = (name: string, text: string) => fs.writeFileSync(path.join(dir, 'tests', 'api', name), text);
      write('a.test.ts', '// engines: both — locks\n');
      write('b.test.ts', '// engines: pglite — menus\n');
      write('c.test.ts', 'import x;\n');
      write('helper.ts', '');
      expect(postgresApiTests(path.join(dir, 'tests', 'api'))).toEqual(['tests/api/a.test.ts', 'tests/api/c.test.ts']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
