import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkMenus } from '../../generators/lib/menus.js';
import { SCHEMAS_DIR, checkSchemasDir } from '../../generators/lib/schemas.js';
import { newModule } from '../../generators/new-module.js';
import { ModuleRegistry } from '../../src/server/runtime/registry.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** A scratch copy of the repository's modules and menu. */
function scratch(): { schemasDir: string; typesFile: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'new-module-'));
  dirs.push(dir);
  const schemasDir = path.join(dir, 'schemas');
  fs.mkdirSync(schemasDir);
  fs.cpSync(path.join(SCHEMAS_DIR, 'modules'), path.join(schemasDir, 'modules'), { recursive: true });
  fs.cpSync(path.join(SCHEMAS_DIR, 'dicts'), path.join(schemasDir, 'dicts'), { recursive: true });
  fs.copyFileSync(path.join(SCHEMAS_DIR, 'menus.json'), path.join(schemasDir, 'menus.json'));
  return { schemasDir, typesFile: path.join(dir, 'modules.ts') };
}

/**
 * Turns pages of the scratch menu back into placeholders (`pending:<id>`, no buttons, no module schema): the
 * takeover is tested on pages the repository has meanwhile built (奖惩信息 and 党员积分 since issue 27).
 */
function asPlaceholders(schemasDir: string, ids: string[]): void {
  const file = path.join(schemasDir, 'menus.json');
  const tree = JSON.parse(fs.readFileSync(file, 'utf8'));
  const walk = (nodes: Record<string, unknown>[]) => nodes.forEach((n) => {
    if (ids.includes(n.id as string)) {
      n.component = `pending:${n.id}`;
      delete n.children;
    } else walk((n.children as Record<string, unknown>[]) ?? []);
  });
  walk(tree.menus);
  fs.writeFileSync(file, JSON.stringify(tree, null, 2));
  for (const id of ids) fs.rmSync(path.join(schemasDir, 'modules', `${id}.json`), { force: true });
  // Before the pages were built no other module showed their records (x-related tabs on member and cadre).
  const modulesDir = path.join(schemasDir, 'modules');
  for (const name of fs.readdirSync(modulesDir)) {
    const schemaFile = path.join(modulesDir, name);
    const schema = JSON.parse(fs.readFileSync(schemaFile, 'utf8')) as { 'x-related'?: { module: string }[] };
    if (!schema['x-related']?.some((r) => ids.includes(r.module))) continue;
    schema['x-related'] = schema['x-related'].filter((r) => !ids.includes(r.module));
    fs.writeFileSync(schemaFile, JSON.stringify(schema, null, 2));
  }
}

const menus = (schemasDir: string) => JSON.parse(fs.readFileSync(path.join(schemasDir, 'menus.json'), 'utf8')).menus as { id: string; title: string; children?: { id: string; component?: string; children?: unknown[] }[] }[];

describe('npm run new-module', { timeout: 30_000 }, () => {
  it('writes a starter schema that the checks and the runtime accept, a 待分类 menu page and the types', async () => {
    const { schemasDir, typesFile } = scratch();
    const result = await newModule({ id: 'party-fee', title: '党费缴纳', schemasDir, typesFile });
    const schema = JSON.parse(fs.readFileSync(result.schemaFile, 'utf8'));
    expect(schema).toMatchObject({ 'x-id': 'party-fee', title: '党费缴纳', 'x-scope': 'orgId', 'x-trail': true });
    expect(checkSchemasDir(schemasDir)).toEqual([]);
    expect(checkMenus(schemasDir)).toEqual([]);
    expect(ModuleRegistry.load(schemasDir, 'hntb').get('party-fee')?.table).toBe('m_party_fee');
    const uncategorised = menus(schemasDir).at(-1)!;
    expect(uncategorised).toMatchObject({ id: 'uncategorized', title: '待分类' });
    expect(uncategorised.children).toEqual([expect.objectContaining({ id: 'party-fee', component: 'module:party-fee', permission: 'party-fee:list' })]);
    expect(uncategorised.children![0].children).toHaveLength(5);
    expect(fs.readFileSync(typesFile, 'utf8')).toContain('export interface PartyFeeRecord');
    // A second module joins the same directory.
    await newModule({ id: 'party-fee-batch', schemasDir, typesFile });
    expect(menus(schemasDir).filter((m) => m.id === 'uncategorized')).toHaveLength(1);
    expect(menus(schemasDir).at(-1)!.children!.map((c) => c.id)).toEqual(['party-fee', 'party-fee-batch']);
  });

  it('puts the page under --parent and refuses existing ids, bad ids and unknown parents', async () => {
    const { schemasDir, typesFile } = scratch();
    await newModule({ id: 'member-reward-x', title: '奖惩', parent: 'member-daily', schemasDir, typesFile });
    const daily = menus(schemasDir).find((m) => m.id === 'party-member')!.children!.find((c) => c.id === 'member-daily')!;
    expect((daily.children as { id: string }[]).map((c) => c.id)).toContain('member-reward-x');
    expect(checkMenus(schemasDir)).toEqual([]);
    await expect(newModule({ id: 'regulation', schemasDir, typesFile })).rejects.toThrow('module "regulation" already exists');
    await expect(newModule({ id: 'member-info', schemasDir, typesFile })).rejects.toThrow('the menu already has an entry with id "member-info"');
    await expect(newModule({ id: 'Bad_Id', schemasDir, typesFile })).rejects.toThrow('is not a module id');
    await expect(newModule({ id: 'fine-id', parent: 'member-info', schemasDir, typesFile })).rejects.toThrow('--parent "member-info" is not a directory');
    expect(fs.existsSync(path.join(schemasDir, 'modules', 'fine-id.json'))).toBe(false);
  });

  it('[issue 13.4] takes over a placeholder page: its id, title, place, path, icon, permission and spec area', async () => {
    const { schemasDir, typesFile } = scratch();
    asPlaceholders(schemasDir, ['member-reward', 'member-points']);
    const daily = () => menus(schemasDir).find((m) => m.id === 'party-member')!.children!.find((c) => c.id === 'member-daily')!.children as Record<string, unknown>[];
    const before = daily().find((c) => c.id === 'member-reward')!;
    expect(before.component).toBe('pending:member-reward');
    await expect(newModule({ id: 'member-reward', parent: 'uncategorized', schemasDir, typesFile })).rejects.toThrow('"member-reward" is a placeholder page under "member-daily"');
    const result = await newModule({ id: 'member-reward', parent: 'member-daily', schemasDir, typesFile });
    expect(result.tookOver).toEqual({ title: before.title, permission: 'member-reward:list' });
    const after = daily();
    expect(after.map((c) => c.id)).toEqual(daily().map((c) => c.id)); // same place among its siblings
    const page = after.find((c) => c.id === 'member-reward')!;
    expect(page).toMatchObject({ ...before, component: 'module:member-reward' });
    expect((page.children as { permission: string }[]).map((b) => b.permission)).toEqual(['add', 'edit', 'delete', 'export', 'import'].map((a) => `member-reward:${a}`));
    const schema = JSON.parse(fs.readFileSync(result.schemaFile, 'utf8'));
    expect(schema.title).toBe(before.title);
    // The page's permission lists and views; the buttons grant the rest.
    expect(schema['x-permissions']).toMatchObject({ list: 'member-reward:list', view: 'member-reward:list', add: 'member-reward:add' });
    expect(checkSchemasDir(schemasDir)).toEqual([]);
    expect(checkMenus(schemasDir)).toEqual([]);
    // Taken over once: the entry is a module page now.
    await expect(newModule({ id: 'member-reward', schemasDir, typesFile })).rejects.toThrow('module "member-reward" already exists');
    // --title renames the page and the module.
    const points = await newModule({ id: 'member-points', title: '党员积分管理', schemasDir, typesFile });
    expect(points.tookOver?.title).toBe('党员积分管理');
    expect(daily().find((c) => c.id === 'member-points')!.title).toBe('党员积分管理');
  });
});
