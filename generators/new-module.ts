/**
 * `npm run new-module -- <id> [--title 中文名称] [--parent <menu id>]`: scaffolds a business module.
 * Writes schemas/modules/<id>.json (a starter schema that passes every check), adds its page to
 * schemas/menus.json (under the directory named by --parent, or under a "待分类" directory), and
 * regenerates the record types. Refuses an id that already has a schema or a menu entry.
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
}

/** The starter schema: a name, the owning organisation (data scope) and a note, with list, form and trail. */
export function starterSchema(id: string, title: string): ModuleSchema {
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
    'x-trail': true,
    'x-scope': 'orgId',
  } as ModuleSchema;
}

function pageOf(id: string, title: string): MenuNode {
  const button = (action: string, label: string): MenuNode => ({ id: `${id}-${action}`, type: 'button', title: label, permission: `${id}:${action}` }) as MenuNode;
  return {
    id,
    type: 'page',
    title,
    path: id,
    icon: 'FileTextOutlined',
    component: `module:${id}`,
    permission: `${id}:list`,
    children: [button('add', '新增'), button('edit', '编辑'), button('delete', '删除'), button('export', '导出'), button('import', '导入')],
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
  if (findNode(doc.menus, id)) throw new Error(`the menu already has an entry with id "${id}"`);

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

  const schema = starterSchema(id, title);
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
  return { schemaFile, menusFile, typesFile, parent: parent.id };
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
    console.log(`✓ added the page to ${rel(result.menusFile)} under "${result.parent}"`);
    console.log(`✓ regenerated ${rel(result.typesFile)}`);
    console.log('Next: edit the schema (fields, list, form), then restart the server: the table and the API follow. See docs/schema.md.');
  } catch (error) {
    console.error(`✗ ${(error as Error).message}`);
    process.exit(1);
  }
}
