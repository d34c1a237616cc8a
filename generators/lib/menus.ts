/** Loads and checks schemas/menus.json (the server menu tree seeded into the database). */
import fs from 'node:fs';
import path from 'node:path';
import metaSchema from '../../schemas/meta/menus.schema.json' with { type: 'json' };
import { Ajv2020, addFormats } from '../../src/shared/module-schema/ajv.js';
import { CORE_PAGES, PLANNED_MODULE_IDS, flattenMenus, menuPaths, parseComponent, type MenuNode } from '../../src/shared/menus.js';
import { isMenuIcon } from '../../src/shared/menu-icons.js';
import { SCHEMAS_DIR } from './schemas.js';

export const MENUS_FILE = 'menus.json';

let validator: ReturnType<InstanceType<typeof Ajv2020>['compile']> | undefined;

function validate(doc: unknown): string[] {
  if (!validator) {
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    addFormats(ajv);
    validator = ajv.compile(metaSchema);
  }
  if (validator(doc)) return [];
  return (validator.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
}

/** The menu tree of `<schemasDir>/menus.json` (not checked: see checkMenus). */
export function loadMenus(schemasDir = SCHEMAS_DIR): MenuNode[] {
  const doc = JSON.parse(fs.readFileSync(path.join(schemasDir, MENUS_FILE), 'utf8')) as { menus: MenuNode[] };
  return doc.menus;
}

/** Module ids a `module:<id>` component may name: a schema file under modules/, or a planned module. */
export function knownModuleIds(schemasDir = SCHEMAS_DIR): Set<string> {
  const dir = path.join(schemasDir, 'modules');
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)) : [];
  return new Set<string>([...files, ...PLANNED_MODULE_IDS]);
}

/**
 * Checks a menu document: the meta-schema, then what it cannot express — unique ids, unique absolute
 * paths, each spec area (`feature`) on one page only, components that name a known module or core
 * page, and icons of the menu icon sprite. Returns readable problems, empty when fine.
 */
export function checkMenuDocument(doc: unknown, moduleIds: Set<string>): string[] {
  const shape = validate(doc);
  if (shape.length > 0) return shape;
  const tree = (doc as { menus: MenuNode[] }).menus;
  const problems: string[] = [];
  const seen = (what: string) => {
    const first = new Map<string, string>();
    return (key: string, owner: string) => {
      const earlier = first.get(key);
      if (earlier !== undefined) problems.push(`${what} "${key}" used by "${earlier}" and "${owner}"`);
      else first.set(key, owner);
    };
  };
  const feature = seen('feature');
  const route = seen('path');
  const core = new Set<string>(CORE_PAGES);
  const ids = new Map<string, number>();
  for (const node of flattenMenus(tree)) {
    const count = (ids.get(node.id) ?? 0) + 1;
    ids.set(node.id, count);
    if (count === 2) problems.push(`id "${node.id}" is not unique`);
    if (node.feature) feature(node.feature, node.id);
    const component = parseComponent(node.component);
    if (component?.kind === 'module' && !moduleIds.has(component.id)) {
      problems.push(`"${node.id}": module "${component.id}" has no schemas/modules/${component.id}.json and is not a planned module`);
    }
    if (node.icon && !isMenuIcon(node.icon)) problems.push(`"${node.id}": icon "${node.icon}" is not in src/shared/menu-icons.ts`);
    if (component?.kind === 'core' && !core.has(component.id)) {
      problems.push(`"${node.id}": core page "${component.id}" is not one of ${CORE_PAGES.join(', ')}`);
    }
  }
  for (const { id: owner, path: p } of menuPaths(tree)) route(p, owner);
  return problems;
}

/** `schemas:check` for the menu: "menus.json: problem" lines, empty when the file is valid. */
export function checkMenus(schemasDir = SCHEMAS_DIR): string[] {
  const file = path.join(schemasDir, MENUS_FILE);
  let doc: unknown;
  try {
    doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    return [`${MENUS_FILE}: cannot read: ${(error as Error).message}`];
  }
  return checkMenuDocument(doc, knownModuleIds(schemasDir)).map((p) => `${MENUS_FILE}: ${p}`);
}
