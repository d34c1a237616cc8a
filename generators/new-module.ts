/**
 * `npm run new-module -- <id> [--title 中文名称] [--parent <menu id>]`: scaffolds a business module.
 * Writes schemas/modules/<id>.json (a starter schema that passes every check), puts its page in
 * schemas/menus.json and regenerates the record types.
 * - A placeholder page of that id (`pending:<id>`) is taken over: it keeps its title, place, path, icon
 *   and permission, and becomes `module:<id>` with add/edit/delete/export/import buttons.
 * - Otherwise a new page goes under the directory named by --parent, or under a "待分类" directory.
 * Refuses an id that already has a schema or a menu entry that is not a placeholder.
 * Walkthrough: docs/schema.md, "Add a module in ten minutes".
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkModuleSchema } from '../src/shared/module-schema/check.js';
import type { ModuleSchema } from '../src/shared/module-schema/types.js';
import type { MenuNode } from '../src/shared/menus.js';
import { MENUS_FILE, checkMenuDocument, knownModuleIds } from './lib/menus.js';
import { GENERATED_TYPES_FILE, SCHEMAS_DIR, generateTypes } from './lib/schemas.js';

const MODULE_ID = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
export const UNCATEGORISED = { id: 'uncategorized', title: '待分类', path: '/uncategorized', icon: 'AppstoreOutlined' } as const;

export interface NewModuleOptions {
  id: string;
  title?: string;
  /** Menu id of the directory the page goes under; default: the "待分类" directory (created when missing). */
  parent?: string;
  schemasDir?: string;
  typesFile?: string;
}

export interface NewModuleResult {
  schemaFile: string;
  menusFile: string;
  typesFile: string;
  parent: string;
  /** The placeholder page taken over, if there was one. */
  tookOver?: { title: string; permission: string };
}

/**
 * The starter schema: a name, the owning organisation (data scope) and a note, with list, form, trail,
 * permissions a role can be granted through the menu (view = the page's list permission) and a suggested
 * natural key (x-unique: an import row with the same values updates the record instead of adding one).
 */
export function starterSchema(id: string, title: string, listPermission = `${id}:list`): ModuleSchema {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    'x-id': id,
    title,
    description: `${title}: describe what one record is. See docs/schema.md for every keyword.`,
    type: 'object',
    additionalProperties: false,
    required: ['name', 'orgId'],
    properties: {
      name: { type: 'string', title: '名称', minLength: 1, maxLength: 100 },
      orgId: { type: 'integer', title: '所属组织', 'x-ref': 'org', 'x-widget': 'org-tree' },
      occurredOn: { type: 'string', title: '日期', format: 'date' },
      remark: { type: 'string', title: '备注', format: 'textarea', maxLength: 500 },
    },
    'x-list': {
      columns: [{ field: 'name', width: 240, ellipsis: true }, 'orgId', 'occurredOn'],
      filters: [
        { field: 'name', op: 'like' },
        { field: 'orgId', op: 'org-subtree' },
        { field: 'occurredOn', op: 'range' },
      ],
      sort: 'occurredOn,desc',
    },
    'x-form': { layout: 'single', order: ['name', 'orgId', 'occurredOn', 'remark'] },
    'x-permissions': {
      list: listPermission,
      view: listPermission,
      add: `${id}:add`,
      edit: `${id}:edit`,
      delete: `${id}:delete`,
      export: `${id}:export`,
      import: `${id}:import`,
    },
    'x-trail': true,
    'x-unique': [['orgId', 'name', 'occurredOn']],
    'x-scope': 'orgId',
  } as ModuleSchema;
}

/** The buttons that grant a module page's actions in 角色管理. */
function buttonsOf(id: string): MenuNode[] {
  const button = (action: string, label: string): MenuNode => ({ id: `${id}-${action}`, type: 'button', title: label, permission: `${id}:${action}` }) as MenuNode;
  return [button('add', '新增'), button('edit', '编辑'), button('delete', '删除'), button('export', '导出'), button('import', '导入')];
}

function pageOf(id: string, title: string): MenuNode {
  return {
    id,
    type: 'page',
    title,
    path: id,
    icon: 'FileTextOutlined',
    component: `module:${id}`,
    permission: `${id}:list`,
    children: buttonsOf(id),
  } as MenuNode;
}

function findNode(nodes: MenuNode[], id: string): MenuNode | undefined {
  for (const n of nodes) {
    if (n.id === id) return n;
    const hit = n.children && findNode(n.children, id);
    if (hit) return hit;
  }
  return undefined;
}

function parentOf(nodes: MenuNode[], id: string, parent?: MenuNode): MenuNode | undefined {
  for (const n of nodes) {
    if (n.id === id) return parent;
    const hit = n.children && parentOf(n.children, id, n);
    if (hit) return hit;
  }
  return undefined;
}

export async function newModule(options: NewModuleOptions): Promise<NewModuleResult> {
  const { id } = options;
  const schemasDir = options.schemasDir ?? SCHEMAS_DIR;
  const typesFile = options.typesFile ?? GENERATED_TYPES_FILE;
  if (!MODULE_ID.test(id)) throw new Error(`"${id}" is not a module id: use English kebab-case, e.g. party-fee or member-reward`);
  const title = options.title?.trim() || id;
  const schemaFile = path.join(schemasDir, 'modules', `${id}.json`);
  if (fs.existsSync(schemaFile)) throw new Error(`module "${id}" already exists: ${path.relative(process.cwd(), schemaFile)}`);
  const menusFile = path.join(schemasDir, MENUS_FILE);
  const doc = JSON.parse(fs.readFileSync(menusFile, 'utf8')) as { menus: MenuNode[] };
  const existing = findNode(doc.menus, id);
  if (existing) return takeOver(options, { schemaFile, menusFile, typesFile, doc, node: existing });

  let parent: MenuNode | undefined;
  if (options.parent) {
    parent = findNode(doc.menus, options.parent);
    if (!parent || parent.type !== 'directory') throw new Error(`--parent "${options.parent}" is not a directory of ${MENUS_FILE}`);
  } else {
    parent = findNode(doc.menus, UNCATEGORISED.id);
    if (!parent) {
      parent = { ...UNCATEGORISED, type: 'directory', children: [] } as MenuNode;
      doc.menus.push(parent);
    }
  }
  parent.children = [...(parent.children ?? []), pageOf(id, title)];
  await write(starterSchema(id, title), { schemaFile, menusFile, typesFile, doc }, schemasDir, id);
  return { schemaFile, menusFile, typesFile, parent: parent.id };
}

interface Files {
  schemaFile: string;
  menusFile: string;
  typesFile: string;
  doc: { menus: MenuNode[] };
}

/**
 * A placeholder page (`pending:<id>`) becomes the module's page: same id, title, place, path, icon,
 * permission and spec area; `module:<id>` with the action buttons. --title renames both page and module.
 */
async function takeOver(options: NewModuleOptions, files: Files & { node: MenuNode }): Promise<NewModuleResult> {
  const { id } = options;
  const { node, doc } = files;
  if (node.type !== 'page' || node.component !== `pending:${id}`) throw new Error(`the menu already has an entry with id "${id}" (${node.component ?? node.type}), not a placeholder page`);
  const parent = parentOf(doc.menus, id);
  if (options.parent && options.parent !== parent?.id) {
    throw new Error(`"${id}" is a placeholder page under "${parent?.id}": leave out --parent (the page stays where it is) or give --parent ${parent?.id}`);
  }
  const title = options.title?.trim() || node.title;
  const permission = node.permission ?? `${id}:list`;
  Object.assign(node, { title, component: `module:${id}`, permission, children: buttonsOf(id) });
  const schemasDir = options.schemasDir ?? SCHEMAS_DIR;
  await write(starterSchema(id, title, permission), files, schemasDir, id);
  const { schemaFile, menusFile, typesFile } = files;
  return { schemaFile, menusFile, typesFile, parent: parent?.id ?? '', tookOver: { title, permission } };
}

/** Checks the new schema and menu, then writes them and the regenerated types (nothing when a check fails). */
async function write(schema: ModuleSchema, files: Files, schemasDir: string, id: string): Promise<void> {
  const { schemaFile, menusFile, typesFile, doc } = files;
  const problems = [
    ...checkModuleSchema(schema, id).map((p) => `schema: ${p}`),
    ...checkMenuDocument(doc, new Set([...knownModuleIds(schemasDir), id])).map((p) => `${MENUS_FILE}: ${p}`),
  ];
  if (problems.length) throw new Error(`cannot add module "${id}": ${problems.join('; ')}`);
  fs.mkdirSync(path.dirname(schemaFile), { recursive: true });
  fs.writeFileSync(schemaFile, `${JSON.stringify(schema, null, 2)}\n`);
  fs.writeFileSync(menusFile, `${JSON.stringify(doc, null, 2)}\n`);
  fs.mkdirSync(path.dirname(typesFile), { recursive: true });
  fs.writeFileSync(typesFile, await generateTypes(schemasDir));
}

function parseArgs(argv: string[]): NewModuleOptions {
  const options: Partial<NewModuleOptions> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--parent' || arg === '--title') {
      const value = argv[++i];
      if (!value) throw new Error(`${arg} needs a value`);
      options[arg === '--parent' ? 'parent' : 'title'] = value;
    } else if (arg.startsWith('--')) throw new Error(`unknown option ${arg}`);
    else if (!options.id) options.id = arg;
    else throw new Error(`unexpected argument "${arg}"`);
  }
  if (!options.id) throw new Error('usage: npm run new-module -- <id> [--title 中文名称] [--parent <menu id>]');
  return options as NewModuleOptions;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const result = await newModule(parseArgs(process.argv.slice(2)));
    const rel = (f: string) => path.relative(process.cwd(), f);
    console.log(`✓ wrote ${rel(result.schemaFile)}`);
    if (result.tookOver) {
      console.log(`✓ took over the placeholder page "${result.tookOver.title}" under "${result.parent}" in ${rel(result.menusFile)} (permission ${result.tookOver.permission}, now with add/edit/delete/export/import buttons)`);
    } else console.log(`✓ added the page to ${rel(result.menusFile)} under "${result.parent}"`);
    console.log(`✓ regenerated ${rel(result.typesFile)}`);
    console.log('Next: edit the schema (fields, list, form), then restart the server: the table and the API follow. See docs/schema.md.');
  } catch (error) {
    console.error(`✗ ${(error as Error).message}`);
    process.exit(1);
  }
}
