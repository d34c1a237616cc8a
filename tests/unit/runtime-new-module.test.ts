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

const menus = (schemasDir: string) => JSON.parse(fs.readFileSync(path.join(schemasDir, 'menus.json'), 'utf8')).menus as { id: string; title: string; children?: { id: string; component?: string; children?: unknown[] }[] }[];

describe('npm run new-module', () => {
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
});
