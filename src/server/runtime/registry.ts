import fs from 'node:fs';
import path from 'node:path';
import { checkModuleSchema, checkReferenceTypes } from '../../shared/module-schema/check.js';
import { createRecordAjv } from '../../shared/module-schema/formats.js';
import { mergePatch } from '../../shared/module-schema/merge-patch.js';
import type { ModuleSchema } from '../../shared/module-schema/types.js';
import { RuntimeModule } from './module.js';

/** Core entities a reference may name without a module of that id (resolved when such a module exists). */
export const CORE_REFS = new Set(['org', 'member', 'user', 'unit']);

/** A problem in the schemas that stops the start; its message is one line. */
export class SchemaLoadError extends Error {}

function readJson(file: string, what: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new SchemaLoadError(`${what}: cannot read ${file}: ${(error as Error).message}`);
  }
}

/** The `overrides` of `<schemasDir>/schools/<school>.json`, or none when the file does not exist. */
export function readSchoolOverrides(schemasDir: string, school: string): Record<string, unknown> {
  const file = path.join(schemasDir, 'schools', `${school}.json`);
  if (!fs.existsSync(file)) return {};
  const doc = readJson(file, `school ${school}`) as { overrides?: Record<string, unknown> };
  return doc.overrides ?? {};
}

/**
 * The modules of a deployment: every `<schemasDir>/modules/*.json`, each patched by the school's
 * override (JSON Merge Patch) and checked after the merge, so server and web see one schema.
 */
export class ModuleRegistry {
  private readonly modules = new Map<string, RuntimeModule>();

  constructor(modules: RuntimeModule[]) {
    for (const m of modules) this.modules.set(m.id, m);
    for (const m of modules) {
      for (const child of m.children) this.modules.get(child.module)!.parents.push({ module: m.id, foreignKey: child.foreignKey });
    }
    for (const m of modules) this.inheritScope(m, new Set());
  }

  static load(schemasDir: string, school: string): ModuleRegistry {
    const dir = path.join(schemasDir, 'modules');
    const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort().map((id) => `${id}.json`) : [];
    const overrides = readSchoolOverrides(schemasDir, school);
    const ids = new Set(files.map((f) => f.slice(0, -5)));
    const unknown = Object.keys(overrides).filter((id) => !ids.has(id));
    if (unknown.length) throw new SchemaLoadError(`school ${school}: overrides name unknown module(s) ${unknown.join(', ')}`);
    const ajv = createRecordAjv();
    const modules: RuntimeModule[] = [];
    for (const file of files) {
      const id = file.slice(0, -5);
      const base = readJson(path.join(dir, file), `module ${id}`);
      const baseProblems = checkModuleSchema(base, id);
      if (baseProblems.length) throw new SchemaLoadError(`module ${id}: ${baseProblems.join('; ')}`);
      const merged = id in overrides ? mergePatch(base, overrides[id]) : base;
      const problems = [...checkModuleSchema(merged, id), ...checkReferenceTypes(merged as ModuleSchema)];
      if (problems.length) {
        const where = id in overrides ? `school ${school}: the override of module ${id} breaks it` : `module ${id}`;
        throw new SchemaLoadError(`${where}: ${problems.join('; ')}`);
      }
      modules.push(new RuntimeModule(merged as ModuleSchema, ajv));
    }
    checkAcrossModules(modules);
    return new ModuleRegistry(modules);
  }

  /** A module without x-scope takes its data scope from the first scoped parent (x-children); answers whether it has one. */
  private inheritScope(m: RuntimeModule, seen: Set<string>): boolean {
    if (m.scopeField || m.scopeVia) return true;
    if (seen.has(m.id)) return false;
    seen.add(m.id);
    for (const link of m.parents) {
      const parent = this.modules.get(link.module)!;
      if (this.inheritScope(parent, seen)) {
        m.scopeVia = { foreignKey: m.field(link.foreignKey)!, parent };
        return true;
      }
    }
    return false;
  }

  get(id: string): RuntimeModule | undefined {
    return this.modules.get(id);
  }

  list(): RuntimeModule[] {
    return [...this.modules.values()];
  }
}

/** Children and references must name modules that exist (core entities may wait for theirs). */
function checkAcrossModules(modules: RuntimeModule[]): void {
  const byId = new Map(modules.map((m) => [m.id, m]));
  const problems: string[] = [];
  for (const m of modules) {
    for (const child of m.children) {
      const target = byId.get(child.module);
      if (!target) problems.push(`module ${m.id}: x-children names unknown module "${child.module}"`);
      else if (target.field(child.foreignKey)?.ref !== m.id) {
        problems.push(`module ${m.id}: x-children foreign key "${child.foreignKey}" must be a field of "${child.module}" with x-ref "${m.id}"`);
      }
    }
    for (const f of m.fields.values()) {
      if (f.ref && !CORE_REFS.has(f.ref) && !byId.has(f.ref)) problems.push(`module ${m.id}: ${f.name}.x-ref names unknown module "${f.ref}"`);
    }
  }
  if (problems.length) throw new SchemaLoadError(problems.join('; '));
}
