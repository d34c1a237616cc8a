/**
 * Build time (Node, the Vite config) side of form validation: ajv's standalone code for the form schema of every module,
 * for every school's overrides. The server's Content-Security-Policy forbids `eval`, so the browser
 * cannot compile schemas with ajv; it uses these precompiled functions instead (rjsf's precompiled
 * validator), and compiles at run time only where that is allowed (the dev server, tests).
 *
 * The Vite plugin `recordValidators()` puts the code in place of `precompiled-validators.ts`.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { schemaParser, type RJSFSchema } from '@rjsf/utils';
import createAjvInstance from '@rjsf/validator-ajv8/lib/createAjvInstance.js';
import { _ } from 'ajv/dist/compile/codegen/index.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import type { Plugin } from 'vite';
import { ModuleRegistry } from '../../src/server/runtime/registry.js';
import { Ajv2020 } from '../../src/shared/module-schema/ajv.js';
import { RECORD_FORMATS } from '../../src/shared/module-schema/formats.js';
import type { ModuleSchema } from '../../src/shared/module-schema/types.js';
import { SCHOOL_CODES } from '../../src/shared/schools.js';
import { recordFormSchema, stepSchema } from '../../src/shared/module-schema/workflow.js';
import { formSchema } from '../../src/web/renderer/form/ui-schema.js';

// import.meta.url, not import.meta.dirname: Vite rewrites it to this file's own location when it bundles its config.
const HERE = path.dirname(fileURLToPath(import.meta.url));
const FORMATS_MODULE = path.resolve(HERE, '../../src/shared/module-schema/formats.ts');
const STUB = path.resolve(HERE, '../../src/web/renderer/form/precompiled-validators.ts');

/** The form schemas of every module as the server serves them to each school (duplicates dropped). */
export function allFormSchemas(schemasDir: string): RJSFSchema[] {
  const byHash = new Map<string, RJSFSchema>();
  for (const school of SCHOOL_CODES) {
    for (const m of ModuleRegistry.load(schemasDir, school).list()) {
      // As the browser receives it: through JSON.
      const served = JSON.parse(JSON.stringify(m.schema)) as ModuleSchema;
      // A workflow module's record form leaves out what its steps fill in; the steps have forms of their own.
      const steps = Object.keys(served['x-workflow']?.transitions ?? {}).map((id) => stepSchema(served, id));
      for (const form of [served, recordFormSchema(served), ...steps]) {
        for (const [hash, schema] of Object.entries(schemaParser(formSchema(form)))) byHash.set(hash, schema);
      }
    }
  }
  return [...byHash.values()];
}

/**
 * An ES module whose default export maps each schema's rjsf hash to its ajv validate function (what
 * `createPrecompiledValidator` takes). Formats come from the same table the server uses.
 */
export function recordValidatorsModule(schemas: RJSFSchema[]): string {
  const ids = schemas.map((s) => String(s.$id));
  const ajv = createAjvInstance(
    undefined,
    RECORD_FORMATS as never,
    { code: { source: true, esm: true, lines: false, formats: _`formats` }, schemas } as never,
    undefined,
    Ajv2020 as never,
  );
  const exportName = (id: string) => `v${id.replace('-', '_')}`;
  let code = standaloneCode(ajv, Object.fromEntries(ids.map((id) => [exportName(id), id])));
  // ajv's runtime helpers arrive as CommonJS `require(...)`: turn them into imports.
  const imports: string[] = [];
  code = code.replace(/require\("([^"]+)"\)(\.default)?/g, (_m, spec: string) => {
    const name = `__runtime${imports.length}`;
    // Node's ESM loader wants the file's extension.
    imports.push(`import * as ${name}Module from ${JSON.stringify(spec.endsWith('.js') ? spec : `${spec}.js`)};\nconst ${name} = __unwrap(${name}Module);`);
    return name;
  });
  return [
    `import { fullFormats } from 'ajv-formats/dist/formats.js';`,
    `import { RECORD_FORMATS } from ${JSON.stringify(FORMATS_MODULE)};`,
    `const __unwrap = (m) => (typeof m === 'function' ? m : typeof m.default === 'function' ? m.default : m.default.default);`,
    ...imports,
    `const formats = { ...fullFormats, ...RECORD_FORMATS };`,
    code.replace('"use strict";', ''),
    `export default { ${ids.map((id) => `${JSON.stringify(id)}: ${exportName(id)}`).join(', ')} };`,
  ].join('\n');
}

/** Vite plugin: serves the precompiled validators in place of the empty `precompiled-validators.ts`. */
export function recordValidators(schemasDir = path.resolve(HERE, '../../schemas')): Plugin {
  return {
    name: 'dangjian-record-validators',
    enforce: 'pre',
    load(id) {
      if (path.resolve(id.split('?')[0]) !== STUB) return null;
      for (const file of ['modules', 'schools']) this.addWatchFile(path.join(schemasDir, file));
      return recordValidatorsModule(allFormSchemas(schemasDir));
    },
  };
}
