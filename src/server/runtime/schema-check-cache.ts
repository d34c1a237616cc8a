/**
 * Checking a module schema compiles it (strict ajv): about a third of a start's work, repeated by every
 * start of the same schemas. A check's answer depends only on the schema's text and the checker, so it is
 * kept by both: in memory for the process (several apps, the seeds' registries), and, when
 * SCHEMA_CHECK_CACHE names a folder, on disk across processes (the test suite starts ~200 apps of the same
 * schemas). Only a clean answer is kept on disk; the key holds the checker's own sources (their sizes and
 * times), so a changed checker checks again.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkModuleSchema } from '../../shared/module-schema/check.js';

const memory = new Map<string, string[]>();
let fingerprint: string | undefined;

/** The checker's identity: its source files (shared/module-schema and the meta-schemas) by size and time. */
function checkerFingerprint(): string {
  if (fingerprint) return fingerprint;
  const here = path.dirname(fileURLToPath(import.meta.url));
  // From src/server/runtime: the checker's sources; from a bundle these do not exist and the bundle itself counts.
  const roots = [path.resolve(here, '../../shared/module-schema'), path.resolve(here, '../../../schemas/meta')];
  const self = fileURLToPath(import.meta.url); // this file, or the server bundle holding the checker
  const parts: string[] = [`${fs.statSync(self).size}:${fs.statSync(self).mtimeMs}`];
  for (const dir of roots) {
    if (!fs.existsSync(dir)) continue;
    for (const f of fs.readdirSync(dir).sort()) {
      const st = fs.statSync(path.join(dir, f));
      if (st.isFile()) parts.push(`${f}:${st.size}:${st.mtimeMs}`);
    }
  }
  return (fingerprint = crypto.createHash('sha1').update(parts.join('|')).digest('hex'));
}

/** `checkModuleSchema`, answered from the caches when this text was checked before. */
export function cachedCheck(schema: unknown, id: string): string[] {
  const text = JSON.stringify(schema);
  const key = `${id}\n${text}`;
  const known = memory.get(key);
  if (known) return known;
  const dir = process.env.SCHEMA_CHECK_CACHE;
  const file = dir ? path.join(dir, `${crypto.createHash('sha1').update(`${checkerFingerprint()}\n${key}`).digest('hex')}.ok`) : undefined;
  if (file && fs.existsSync(file)) {
    memory.set(key, []);
    return [];
  }
  const problems = checkModuleSchema(schema, id);
  memory.set(key, problems);
  if (file && !problems.length) {
    try {
      fs.mkdirSync(dir!, { recursive: true });
      fs.writeFileSync(file, '');
    } catch {
      // A cache that cannot be written only costs the next start its check.
    }
  }
  return problems;
}
