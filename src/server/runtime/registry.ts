import fs from 'node:fs';
import path from 'node:path';
import { checkReferenceTypes } from '../../shared/module-schema/check.js';
import { createRecordAjv } from '../../shared/module-schema/formats.js';
import { mergePatch } from '../../shared/module-schema/merge-patch.js';
import { overrideParamProblems } from '../../shared/module-schema/params.js';
import type { ModuleSchema } from '../../shared/module-schema/types.js';
import { RuntimeModule, type ChildLink, type FieldInfo } from './module.js';
import { progressProblems } from './progress.js';
import { cachedCheck } from './schema-check-cache.js';

/** Core entities a reference may name without a module of that id (resolved when such a module exists). */
/** References the core answers: organisations, members, accounts (users), units, and roles (角色管理). */
export const CORE_REFS = new Set(['org', 'member', 'user', 'unit', 'role']);

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
 * `npm run schemas:check` reads every school through `ModuleRegistry.read`, exactly as the server will.
 */
export class ModuleRegistry {
  private readonly modules = new Map<string, RuntimeModule>();
  /** Modules added at run time from the database (never a file module's id). */
  private readonly storedIds = new Set<string>();

  constructor(
    modules: RuntimeModule[],
    /** Modules the school's override patched: their problems name the school. */
    private readonly overridden = new Set<string>(),
    readonly school = '',
  ) {
    for (const m of modules) this.modules.set(m.id, m);
    for (const m of modules) {
      for (const child of m.children) this.modules.get(child.module)!.parents.push({ module: m.id, foreignKey: child.foreignKey, grid: !!child.grid });
    }
    for (const m of modules) this.inheritScope(m, new Set());
    for (const m of modules) this.inheritPermissions(m, new Set());
    // x-related tabs show to those who may list the related module: the served schema names its permission.
    for (const m of modules) for (const r of m.schema['x-related'] ?? []) r.permission = this.modules.get(r.module)?.permissions.list;
  }

  /** The registry of a deployment; the first start problem stops it (SchemaLoadError, one line). */
  static load(schemasDir: string, school: string): ModuleRegistry {
    const { registry, problems } = ModuleRegistry.read(schemasDir, school);
    if (!registry) throw new SchemaLoadError(problems.join('; '));
    return registry;
  }

  /** Every problem of a deployment's modules (one line each), and the registry when there is none. */
  static read(schemasDir: string, school: string, checked = new Map<string, string[]>()): { registry?: ModuleRegistry; problems: string[] } {
    // Checking compiles the schema; `checked` keeps the answers by schema text across schools, and the
    // check cache across starts (schema-check-cache.ts).
    const check = (schema: unknown, id: string) => {
      const key = JSON.stringify(schema);
      let problems = checked.get(key);
      if (!problems) checked.set(key, (problems = cachedCheck(schema, id)));
      return problems;
    };
    const dir = path.join(schemasDir, 'modules');
    const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort().map((id) => `${id}.json`) : [];
    let overrides: Record<string, unknown>;
    try {
      overrides = readSchoolOverrides(schemasDir, school);
    } catch (error) {
      return { problems: [(error as Error).message] };
    }
    const ids = new Set(files.map((f) => f.slice(0, -5)));
    const problems: string[] = [];
    const unknown = Object.keys(overrides).filter((id) => !ids.has(id));
    if (unknown.length) problems.push(`school ${school}: overrides name unknown module(s) ${unknown.join(', ')}`);
    const ajv = createRecordAjv();
    const modules: RuntimeModule[] = [];
    for (const file of files) {
      const id = file.slice(0, -5);
      let base: unknown;
      try {
        base = readJson(path.join(dir, file), `module ${id}`);
      } catch (error) {
        problems.push((error as Error).message);
        continue;
      }
      const baseProblems = check(base, id);
      if (baseProblems.length) {
        problems.push(`module ${id}: ${baseProblems.join('; ')}`);
        continue;
      }
      const merged = id in overrides ? mergePatch(base, overrides[id]) : base;
      const mergedProblems = [...check(merged, id), ...checkReferenceTypes(merged as ModuleSchema)];
      if (!mergedProblems.length && id in overrides) mergedProblems.push(...overrideParamProblems(base as ModuleSchema, merged as ModuleSchema));
      if (mergedProblems.length) {
        const where = id in overrides ? `school ${school}: the override of module ${id} breaks it` : `module ${id}`;
        problems.push(`${where}: ${mergedProblems.join('; ')}`);
        continue;
      }
      const m = new RuntimeModule(merged as ModuleSchema, ajv);
      m.declareParams(base as ModuleSchema);
      modules.push(m);
    }
    const overridden = new Set(Object.keys(overrides));
    const where = (id: string) => (overridden.has(id) ? `school ${school}: module ${id}` : `module ${id}`);
    problems.push(...acrossModules(modules, where));
    if (problems.length) return { problems };
    return { registry: new ModuleRegistry(modules, overridden, school), problems };
  }

  /** A module without x-scope takes its data scope from the first scoped parent (x-children); answers whether it has one. */
  private inheritScope(m: RuntimeModule, seen: Set<string>): boolean {
    if (m.scopeField || m.scopeVia || m.selfScope) return true;
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

  /**
   * A child module (x-children) is governed by its parent's permissions (docs/schema.md, x-children):
   * who may view the parent lists and views its children, who may edit the parent adds, edits and
   * deletes them; export and import follow the parent's. A child has no menu entry of its own, so this
   * is what lets 角色管理 grant it.
   */
  private inheritPermissions(m: RuntimeModule, seen: Set<string>): void {
    const link = m.parents[0];
    if (!link || m.governedBy || seen.has(m.id)) return;
    seen.add(m.id);
    const parent = this.modules.get(link.module)!;
    this.inheritPermissions(parent, seen);
    m.governBy(parent);
  }

  /** The dictionary codes the modules' fields name. */
  get dictCodes(): string[] {
    return [...new Set(this.list().flatMap((m) => m.dictCodes))];
  }

  /** Fields naming a dictionary outside `known`: one line each. */
  unknownDictionaries(known: Set<string>): string[] {
    const problems: string[] = [];
    for (const m of this.modules.values()) {
      for (const f of m.fields.values()) {
        if (f.dict && !known.has(f.dict)) {
          problems.push(`${this.overridden.has(m.id) ? `school ${this.school}: module ${m.id}` : `module ${m.id}`}: ${f.name}.x-dict names dictionary ${f.dict}, which does not exist (add schemas/dicts/${f.dict}.json)`);
        }
      }
    }
    return problems;
  }

  get(id: string): RuntimeModule | undefined {
    return this.modules.get(id);
  }

  /** Whether `id` is a module of `schemas/modules/` (a stored module may never take its place). */
  isFileModule(id: string): boolean {
    return this.modules.has(id) && !this.storedIds.has(id);
  }

  /** Whether `id` is served from a schema stored in the database (runtime/stored-modules.ts). */
  isStored(id: string): boolean {
    return this.storedIds.has(id);
  }

  /**
   * Adds or replaces a module stored in the database while the server runs. A stored module has no
   * children and no parents (refused by its check), so nothing else of the registry changes.
   */
  putStored(m: RuntimeModule): void {
    if (this.isFileModule(m.id)) throw new Error(`module ${m.id} is a file module; the database cannot replace it`);
    this.modules.set(m.id, m);
    this.storedIds.add(m.id);
  }

  list(): RuntimeModule[] {
    return [...this.modules.values()];
  }
}

/**
 * What would stop the server of any of these schools, or the web build (it compiles every school's
 * forms): the modules without overrides and with each school's, read as the server reads them, and the
 * dictionaries they name (files under dicts/; the server also knows administrators' own). Each problem
 * once, worded as the server words it. `npm run schemas:check` and `npm start` run it.
 */
export function deploymentProblems(schemasDir: string, schools: readonly string[]): string[] {
  const dictDir = path.join(schemasDir, 'dicts');
  const dicts = new Set(fs.existsSync(dictDir) ? fs.readdirSync(dictDir).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)) : []);
  const problems = new Set<string>();
  const checked = new Map<string, string[]>();
  for (const school of ['', ...schools]) {
    const { registry, problems: found } = ModuleRegistry.read(schemasDir, school, checked);
    found.forEach((p) => problems.add(p));
    registry?.unknownDictionaries(dicts).forEach((p) => problems.add(p));
  }
  return [...problems];
}

/**
 * x-related names a module that exists, whose foreign key references this module (or, with `key`, the
 * module this record's field `key` references) and can be filtered on with `eq` (its list is asked so).
 */
function relatedProblems(m: RuntimeModule, byId: Map<string, RuntimeModule>, where: (id: string) => string): string[] {
  const problems: string[] = [];
  for (const r of m.schema['x-related'] ?? []) {
    const target = byId.get(r.module);
    const what = `${where(m.id)}: x-related "${r.module}"`;
    if (!target) {
      problems.push(`${where(m.id)}: x-related names unknown module "${r.module}"`);
      continue;
    }
    const refersTo = r.key ? m.field(r.key)?.ref : m.id;
    if (!refersTo) problems.push(`${what}: key "${r.key}" must be a field with x-ref`);
    else if (target.field(r.foreignKey)?.ref !== refersTo) problems.push(`${what}: foreign key "${r.foreignKey}" must be a field of "${r.module}" with x-ref "${refersTo}"`);
    else if (target.filters.get(r.foreignKey) !== 'eq' && ![...byId.values()].some((p) => p.children.some((c) => c.module === r.module && c.foreignKey === r.foreignKey))) {
      problems.push(`${what}: "${r.module}" must filter on "${r.foreignKey}" with eq (x-list.filters)`);
    }
  }
  return problems;
}

/** The grid of an x-children link: writable fields of the child, sums of its numbers, a bound of the parent. */
function gridProblems(parent: RuntimeModule, child: RuntimeModule, link: ChildLink, where: (id: string) => string): string[] {
  const grid = link.grid;
  if (!grid) return [];
  const at = `${where(parent.id)}: x-children "${child.id}" grid`;
  const problems: string[] = [];
  const numeric = (f: FieldInfo | undefined) => f?.kind === 'integer' || f?.kind === 'number';
  for (const name of grid.fields) {
    const f = child.field(name);
    if (!f || !f.writable || f.name === link.foreignKey) problems.push(`${at}: "${name}" is not a writable field of "${child.id}"`);
    else if (!numeric(f) && f.kind !== 'string' && f.kind !== 'boolean') problems.push(`${at}: "${name}" (${f.kind}) cannot be entered in a grid cell`);
  }
  for (const name of grid.sum?.fields ?? []) {
    if (!grid.fields.includes(name) || !numeric(child.field(name))) problems.push(`${at}.sum: "${name}" is not a number field of the grid`);
  }
  if (grid.sum?.max && !numeric(parent.field(grid.sum.max))) problems.push(`${at}.sum.max: "${grid.sum.max}" is not a number field of "${parent.id}"`);
  return problems;
}

/** Children and references must name modules that exist (core entities may wait for theirs). */
function acrossModules(modules: RuntimeModule[], where: (id: string) => string): string[] {
  const byId = new Map(modules.map((m) => [m.id, m]));
  const problems: string[] = [];
  const parentOf = new Map<string, string>();
  for (const m of modules) {
    for (const child of m.children) {
      const target = byId.get(child.module);
      if (!target) problems.push(`${where(m.id)}: x-children names unknown module "${child.module}"`);
      else if (target.field(child.foreignKey)?.ref !== m.id) {
        problems.push(`${where(m.id)}: x-children foreign key "${child.foreignKey}" must be a field of "${child.module}" with x-ref "${m.id}"`);
      } else if (parentOf.has(child.module)) {
        problems.push(`${where(m.id)}: "${child.module}" is already a child of "${parentOf.get(child.module)}"; a child module has one parent`);
      } else if (target.schema['x-permissions']) {
        problems.push(`${where(child.module)}: a child module (x-children of "${m.id}") takes its permissions from its parent; remove x-permissions`);
      } else {
        parentOf.set(child.module, m.id);
        problems.push(...gridProblems(m, target, child, where));
      }
    }
    problems.push(...relatedProblems(m, byId, where));
    const spread = m.schema['x-form']?.spread;
    const spreadField = spread ? m.field(spread) : undefined;
    if (spread && (!spreadField?.writable || spreadField.kind !== 'integer' || !spreadField.ref)) problems.push(`${where(m.id)}: x-form.spread "${spread}" is not a writable reference field (integer, x-ref)`);
    const progress = m.schema['x-progress'];
    if (progress) problems.push(...progressProblems(m, progress).map((p) => `${where(m.id)}: ${p}`));
    for (const f of m.fields.values()) {
      if (f.ref && !CORE_REFS.has(f.ref) && !byId.has(f.ref)) problems.push(`${where(m.id)}: ${f.name}.x-ref names unknown module "${f.ref}"`);
    }
  }
  return problems;
}
