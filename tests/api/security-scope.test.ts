// engines: pglite — data scope checks: no engine-specific SQL
/**
 * Issue 12, data scope on details, organisations and files (items 6 and 7 and the low items on `fields=all`,
 * 403 vs 404, identity numbers and lookup filters). Each test performs the attack or reproduces the problem
 * the issue describes and checks it no longer gets through.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MenuService } from '../../src/server/core/menus/service.js';
import { DEMO_ROLES } from '../../src/server/seed/demo.js';
import { seedUniversity } from '../../src/server/seed/university/seed.js';
import { generateUniversity } from '../../src/server/seed/university/university.js';
import { idCardCheckChar } from '../../src/shared/validators.js';
import { bearer, login, userWithRole } from '../support/auth.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';

const PASS = 'Scope#2026ab';

interface Member {
  id: number;
  version: number;
  orgId: number;
  idCard: string;
  name: string;
}

describe(`[issue 12] data scope on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: string;
  /** 支部书记 of branch A: member list/view/add/edit/delete, org list/view, scope own. */
  let secretary: string;
  /** Member list only (no view), scope all. */
  let lister: string;
  let branchA: number;
  let branchB: number;
  let inA: Member;
  let inB: Member;
  let orgIds: Map<string, number>;
  let dataDir: string;
  const u = generateUniversity({ members: 160, seed: 12 });

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dj-scope-'));
    t = await createTestApp({ DATA_DIR: dataDir });
    orgIds = (await seedUniversity(t.database, u, 'hntb')).orgIds;
    admin = await login(t.app);
    const branches = u.orgs.filter((o) => o.type === '3' && u.members.some((m) => m.orgKey === o.key && m.partyStatus === '1'));
    branchA = orgIds.get(branches[0].key)!;
    branchB = orgIds.get(branches[1].key)!;
    await userWithRole(t.app, admin, {
      username: 'scopesec', dataScope: 'own', orgId: branchA, password: PASS,
      permissions: ['member:list', 'member:view', 'member:add', 'member:edit', 'member:delete', 'org:list', 'org:view'],
    });
    await userWithRole(t.app, admin, { username: 'scopelister', permissions: ['member:list'], password: PASS });
    secretary = await login(t.app, 'scopesec', PASS);
    lister = await login(t.app, 'scopelister', PASS);
    // Lists mask identity numbers; the detail gives the administrator the whole number.
    const first = async (orgId: number) => {
      const listed = (await call('POST', '/api/m/member/list?fields=all&size=1', { orgId, partyStatus: '1' })).json().content[0] as Member;
      return (await call('GET', `/api/m/member/${listed.id}`)).json() as Member;
    };
    inA = await first(branchA);
    inB = await first(branchB);
  });
  afterAll(async () => {
    await t.app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, token = admin) {
    return t.app.inject({ method, url, headers: bearer(token), ...(payload !== undefined && { payload: payload as object }) });
  }

  /** A valid 18-digit identity number of someone born on `date`, sequence `seq`. */
  const idCard = (date: string, seq = '123') => {
    const first17 = `430102${date.replaceAll('-', '')}${seq}`;
    return first17 + idCardCheckChar(first17);
  };
  const newMember = (card: string, orgId = branchA) => ({
    name: '测试党员', gender: '1', idCard: card, category: '1', memberType: '1', partyStatus: '1', joinDate: '2015-07-01', orgId,
  });

  describe('list?fields=all needs view (low item)', () => {
    it('a caller with list only gets every field of every member no more: 403; with view it works', async () => {
      const attack = await call('POST', '/api/m/member/list?fields=all&size=5', {}, lister);
      expect(attack.statusCode, attack.body).toBe(403);
      expect(attack.json()).toEqual({ status: 403, message: '没有访问权限' });
      // The list columns stay open to list, and the caller with view gets all fields.
      expect((await call('POST', '/api/m/member/list?size=5', {}, lister)).statusCode).toBe(200);
      const full = await call('POST', '/api/m/member/list?fields=all&size=5', {}, secretary);
      expect(full.statusCode).toBe(200);
      expect(full.json().content[0]).toHaveProperty('createdAt');
    });

    it('the demo 党委组织部 role, which edits and deletes members, can also open their details (member:view)', async () => {
      const tree = await new MenuService(t.database).menuNodes();
      const dwzzb = new Set(DEMO_ROLES.find((r) => r.code === 'dwzzb')!.permissions(tree));
      for (const action of ['list', 'edit', 'delete']) expect(dwzzb.has(`member:${action}`), action).toBe(true);
      expect(dwzzb.has('member:view')).toBe(true);
      // Every demo role that may list, change or remove a module's records may open them too.
      for (const role of DEMO_ROLES) {
        const perms = new Set(role.permissions(tree));
        for (const p of perms) {
          const [module, action] = p.split(':');
          const m = t.app.runtime.module(module);
          if (m && ['list', 'edit', 'delete'].includes(action) && m.permissions[action as 'list'] === p) expect(perms.has(m.permissions.view), `${role.code} ${p}`).toBe(true);
        }
      }
    });
  });

  describe('403 vs 404 (low item)', () => {
    it('changing or deleting a member outside the scope answers 404, exactly as for a missing one', async () => {
      const missing = await call('PUT', '/api/m/member', { id: 99_999_999, version: 1, name: '改' }, secretary);
      const outside = await call('PUT', '/api/m/member', { id: inB.id, version: inB.version, name: '改' }, secretary);
      expect(outside.statusCode).toBe(404);
      expect(outside.json()).toEqual(missing.json());
      const deleteMissing = await call('DELETE', '/api/m/member', [99_999_999], secretary);
      const deleteOutside = await call('DELETE', '/api/m/member', [inB.id], secretary);
      expect(deleteOutside.statusCode).toBe(404);
      expect(deleteOutside.json()).toEqual(deleteMissing.json());
      expect((await call('GET', `/api/m/member/${inB.id}`, undefined, secretary)).json()).toEqual((await call('GET', '/api/m/member/99999999', undefined, secretary)).json());
      // Nothing changed.
      expect((await call('GET', `/api/m/member/${inB.id}`)).json()).toMatchObject({ name: inB.name, version: inB.version });
    });

    it('a uniqueness conflict with a member outside the scope says nothing of that member', async () => {
      const outside = await call('POST', '/api/m/member', newMember(inB.idCard), secretary);
      expect(outside.statusCode).toBe(400);
      const message = outside.json().message as string;
      expect(message).not.toContain(inB.idCard);
      expect(message).not.toContain(inB.name);
      expect(message).toBe('该身份证号已被其他党组织的记录使用，请核对后重新填写，如有疑问请联系上级党组织');
      expect(outside.json().errors).toEqual([{ field: 'idCard', message }]);
      // Within the scope the usual message names the value (the caller can see that member anyway).
      const inside = await call('POST', '/api/m/member', newMember(inA.idCard), secretary);
      expect(inside.json().message).toBe(`身份证号“${inA.idCard}”已存在`);
    });
  });

  describe('identity numbers (low item)', () => {
    it('x and X, and the 15- and 18-digit forms of one person, are one member', async () => {
      const withX = (() => {
        for (let n = 100; n < 1000; n++) {
          const first17 = `43010219850612${n}`;
          if (idCardCheckChar(first17) === 'X') return `${first17}x`;
        }
        throw new Error('no number with check character X');
      })();
      const created = await call('POST', '/api/m/member', newMember(withX));
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().idCard).toBe(withX.toUpperCase());
      const again = await call('POST', '/api/m/member', newMember(withX.toUpperCase()));
      expect(again.statusCode).toBe(400);
      expect(again.json().errors[0].field).toBe('idCard');
      // Found by either spelling.
      expect((await call('POST', '/api/m/member/list', { idCard: withX })).json().totalElements).toBe(1);

      // The old 15-digit form is widened to 18 digits (the year gains 19, the check character is added).
      const old15 = '430102850612457';
      const wide = await call('POST', '/api/m/member', newMember(old15));
      expect(wide.statusCode, wide.body).toBe(201);
      const first17 = '43010219850612457';
      expect(wide.json().idCard).toBe(first17 + idCardCheckChar(first17));
      const same = await call('POST', '/api/m/member', newMember(first17 + idCardCheckChar(first17)));
      expect(same.statusCode).toBe(400);
      expect(same.json().errors[0].field).toBe('idCard');
      // An update to the other form of another member's number is refused as well.
      const other = await call('PUT', '/api/m/member', { id: created.json().id, version: created.json().version, idCard: old15 });
      expect(other.statusCode).toBe(400);
    });

    it('a birth date after today or one that does not exist is refused with a Chinese message', async () => {
      const pad = (n: number) => String(n).padStart(2, '0');
      const now = new Date();
      const day = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
      const tomorrow = await call('POST', '/api/m/member', newMember(idCard(day(new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1)))));
      expect(tomorrow.statusCode).toBe(400);
      expect(tomorrow.json().errors).toEqual([{ field: 'idCard', message: '身份证号中的出生日期晚于今天，请核对' }]);
      const feb31 = await call('POST', '/api/m/member', newMember(idCard('1990-02-31')));
      expect(feb31.json().errors).toEqual([{ field: 'idCard', message: '身份证号中的出生日期不存在，请核对' }]);
    });
  });

  describe('organisations and their trail (item 7)', () => {
    const PRIVATE = ['secretary', 'deputySecretary', 'committee', 'contactPhone', 'address', 'remark', 'termStart', 'termEnd', 'foundedOn'];
    const orgList = async (token: string, filter: object = {}, query = 'fields=all&size=1000') => {
      const res = await call('POST', `/api/m/org/list?${query}`, filter, token);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { content: Record<string, unknown>[]; totalElements: number };
    };

    it('a 支部书记 lists every organisation, but sees contacts, committee and remarks only of their own', async () => {
      const all = await orgList(admin);
      const mine = await orgList(secretary);
      // The public part of the tree: every organisation with its name, type and parent.
      expect(mine.totalElements).toBe(all.totalElements);
      const other = mine.content.find((o) => o.id === branchB)!;
      expect(other).toMatchObject({ name: expect.any(String), type: '3', parentId: expect.any(Number), restricted: true });
      const adminView = all.content.find((o) => o.id === branchB)!;
      expect(adminView.secretary).toEqual(expect.any(String));
      expect(adminView.contactPhone).toEqual(expect.any(String));
      for (const field of PRIVATE) expect(other[field], field).toBeNull();
      expect(other.updatedBy ?? null).toBeNull();
      // The secretary's own branch in full.
      const own = mine.content.find((o) => o.id === branchA)!;
      expect(own.secretary).toBe(all.content.find((o) => o.id === branchA)!.secretary);
      expect(own.restricted).toBeUndefined();
      // Nothing hidden leaks through the list columns either.
      const columns = await orgList(secretary, {}, 'size=1000');
      expect(columns.content.find((o) => o.id === branchB)!.secretary).toBeNull();
    });

    it('filtering or sorting on a hidden field keeps to the scope (the answer would tell the hidden value)', async () => {
      const byTerm = await orgList(secretary, { termEnd: ['1900-01-01', '2200-12-31'] });
      expect(byTerm.content.every((o) => o.id === branchA)).toBe(true);
      const sorted = await orgList(secretary, {}, 'sort=termEnd,asc&size=1000');
      expect(sorted.content.map((o) => o.id)).toEqual([branchA]);
      // Public filters still list everything.
      const branches = await orgList(secretary, { type: '3' });
      expect(branches.totalElements).toBe(u.orgs.filter((o) => o.type === '3').length);
    });

    it('the detail and its trail of an organisation outside the scope answer 404; list?fields=all and the detail need view', async () => {
      expect((await call('GET', `/api/m/org/${branchB}`, undefined, secretary)).statusCode).toBe(404);
      expect((await call('GET', `/api/m/org/${branchB}/trail`, undefined, secretary)).statusCode).toBe(404);
      const own = await call('GET', `/api/m/org/${branchA}`, undefined, secretary);
      expect(own.statusCode).toBe(200);
      expect(own.json().secretary).toEqual(expect.any(String));
      await userWithRole(t.app, admin, { username: 'orglistonly', permissions: ['org:list', 'unit:list'], password: PASS });
      const listOnly = await login(t.app, 'orglistonly', PASS);
      expect((await call('POST', '/api/m/org/list?fields=all', {}, listOnly)).statusCode).toBe(403);
      expect((await call('GET', `/api/m/org/${branchA}`, undefined, listOnly)).statusCode).toBe(403);
      expect((await call('GET', '/api/trail/orgs', undefined, listOnly)).statusCode).toBe(403);
      // Pickers keep offering every organisation by name (choosing a transfer's destination).
      const picked = await call('GET', `/api/m/org/options?ids=${branchB}`, undefined, secretary);
      expect(picked.json()).toEqual([{ id: branchB, name: u.orgs.find((o) => orgIds.get(o.key) === branchB)!.name }]);
    });

    it('the trail of organisations and units (/api/trail/orgs) shows a 支部书记 only their own organisation and its unit', async () => {
      const change = async (module: 'org' | 'unit', id: number, remark: string) => {
        const current = (await call('GET', `/api/m/${module}/${id}`)).json();
        const res = await call('PUT', `/api/m/${module}`, { id, version: current.version, remark });
        expect(res.statusCode, res.body).toBe(200);
        return current as { unitId: number | null };
      };
      const a = await change('org', branchA, '本支部备注');
      await change('org', branchB, '他支部备注：内部信息');
      const unitA = a.unitId!;
      const unitOther = (await call('POST', '/api/m/unit/list?size=1000', {})).json().content.map((x: { id: number }) => x.id).find((id: number) => id !== unitA) as number;
      await change('unit', unitA, '本单位备注');
      await change('unit', unitOther, '他单位备注');

      const everything = (await call('GET', '/api/trail/orgs?size=100')).json();
      expect(everything.totalElements).toBe(4);
      const res = await call('GET', '/api/trail/orgs?size=100', undefined, secretary);
      expect(res.statusCode, res.body).toBe(200);
      const seen = res.json().content.map((c: { module: string; recordId: number }) => `${c.module}:${c.recordId}`).sort();
      // The secretary holds org:view only: their organisation's changes, no unit's.
      expect(seen).toEqual([`org:${branchA}`]);
      expect(JSON.stringify(res.json())).not.toContain('他支部备注');
      await userWithRole(t.app, admin, { username: 'unitviewer', permissions: ['org:view', 'unit:view'], dataScope: 'own', orgId: branchA, password: PASS });
      const viewer = (await call('GET', '/api/trail/orgs?size=100', undefined, await login(t.app, 'unitviewer', PASS))).json();
      expect(viewer.content.map((c: { module: string; recordId: number }) => `${c.module}:${c.recordId}`).sort()).toEqual([`org:${branchA}`, `unit:${unitA}`]);
      // The page's own permission (its menu entry's, org-trail:list) opens it, with the same scope.
      await userWithRole(t.app, admin, { username: 'trailpage', permissions: ['org-trail:list'], dataScope: 'own', orgId: branchA, password: PASS });
      const page = await call('GET', '/api/trail/orgs?size=100', undefined, await login(t.app, 'trailpage', PASS));
      expect(page.statusCode, page.body).toBe(200);
      expect(page.json().content.map((c: { module: string; recordId: number }) => `${c.module}:${c.recordId}`).sort()).toEqual([`org:${branchA}`, `unit:${unitA}`]);
    });

    it('an organisation clerk of a college creates and edits only under their college', async () => {
      const collegeKey = u.orgs.find((o) => orgIds.get(o.key) === branchA)!.parentKey!;
      const college = orgIds.get(collegeKey)!;
      const root = orgIds.get('org-root')!;
      await userWithRole(t.app, admin, { username: 'orgclerk', permissions: ['org:list', 'org:view', 'org:add', 'org:edit', 'org:delete'], dataScope: 'own', orgId: college, password: PASS });
      const clerk = await login(t.app, 'orgclerk', PASS);
      const created = await call('POST', '/api/m/org', { name: '新建测试党支部', type: '3', parentId: college }, clerk);
      expect(created.statusCode, created.body).toBe(201);
      const outside = await call('POST', '/api/m/org', { name: '越权党支部', type: '3', parentId: root }, clerk);
      expect(outside.statusCode).toBe(400);
      expect(outside.json().errors).toEqual([{ field: 'parentId', message: '所选组织不在您的管理范围内' }]);
      // Their own college keeps its parent (outside the scope) when edited; it cannot be given away.
      const own = (await call('GET', `/api/m/org/${college}`, undefined, clerk)).json();
      expect((await call('PUT', '/api/m/org', { id: college, version: own.version, contactPhone: '0731-1234567' }, clerk)).statusCode).toBe(200);
      expect((await call('PUT', '/api/m/org', { id: created.json().id, version: created.json().version, parentId: root }, clerk)).statusCode).toBe(400);
      const elsewhere = u.orgs.find((o) => o.parentKey !== collegeKey && o.key !== collegeKey && o.key !== 'org-root')!;
      const foreign = (await call('GET', `/api/m/org/${orgIds.get(elsewhere.key)}`)).json();
      expect((await call('PUT', '/api/m/org', { id: foreign.id, version: foreign.version, remark: 'x' }, clerk)).statusCode).toBe(404);
      expect((await call('DELETE', '/api/m/org', [foreign.id], clerk)).statusCode).toBe(404);
      expect((await call('DELETE', '/api/m/org', [created.json().id], clerk)).statusCode).toBe(200);
    });
  });

  describe('files attached to records (item 6)', () => {
    const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4e50000000049454e44ae426082', 'hex');
    const uploadPhoto = async (token: string, moduleName = 'member') => {
      const fd = new FormData();
      fd.append('moduleName', moduleName);
      fd.append('file', new Blob([PNG]), '证件照.png');
      const res = await t.app.inject({ method: 'POST', url: '/api/file/upload', headers: bearer(token), payload: fd });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { id: number; key: string; url: string };
    };
    /** Sets a member's photo as the upload widget does (`<url>&name=<file name>`). */
    const setPhoto = async (member: Member, file: { url: string }) => {
      const current = (await call('GET', `/api/m/member/${member.id}`)).json();
      const res = await call('PUT', '/api/m/member', { id: member.id, version: current.version, photo: `${file.url}&name=${encodeURIComponent('证件照.png')}` });
      expect(res.statusCode, res.body).toBe(200);
    };
    const view = (token: string, id: string | number) => t.app.inject({ url: `/api/file/view?id=${id}`, headers: bearer(token) });

    it('a member photo is readable only by those who may view that member: view permission and data scope', async () => {
      const photoB = await uploadPhoto(admin);
      const photoA = await uploadPhoto(admin);
      await setPhoto(inB, photoB);
      await setPhoto(inA, photoA);
      await userWithRole(t.app, admin, { username: 'photoviewer', permissions: ['member:list', 'member:view'], password: PASS });
      const viewerAll = await login(t.app, 'photoviewer', PASS);

      // The attack: a member's photo outside the caller's scope, or with list but no view.
      expect((await view(secretary, photoB.key)).json()).toEqual({ status: 404, message: '文件不存在或已被删除' });
      expect((await view(lister, photoB.key)).statusCode).toBe(404);
      expect((await view(lister, photoA.key)).statusCode).toBe(404);
      // Those who may open the member see the photo.
      const own = await view(secretary, photoA.key);
      expect(own.statusCode).toBe(200);
      expect(own.rawPayload).toEqual(PNG);
      expect((await view(viewerAll, photoB.key)).statusCode).toBe(200);
      expect((await view(admin, photoB.key)).statusCode).toBe(200);
      // The same rule on every way of reading a file.
      for (const url of ['/api/file/download', '/api/file/play']) {
        expect((await t.app.inject({ url: `${url}?id=${photoB.key}`, headers: bearer(secretary) })).statusCode, url).toBe(404);
        expect((await t.app.inject({ url: `${url}?id=${photoA.key}`, headers: bearer(secretary) })).statusCode, url).toBe(200);
      }
      expect((await t.app.inject({ url: `/api/archivesShareFile/viewFile?fileId=${photoB.key}`, headers: bearer(secretary) })).statusCode).toBe(404);
      // Once the photo is removed from the member, the file is attached to nothing the viewer may open.
      const current = (await call('GET', `/api/m/member/${inA.id}`)).json();
      await call('PUT', '/api/m/member', { id: inA.id, version: current.version, photo: null });
      expect((await view(secretary, photoA.key)).statusCode).toBe(404);
    });

    it('file URLs carry an unguessable key: counting through sequential ids finds nothing', async () => {
      const photo = await uploadPhoto(admin);
      await setPhoto(inA, photo);
      expect(photo.key).toMatch(/^[0-9a-f]{32}$/);
      expect(photo.url).toBe(`/api/file/view?id=${photo.key}`);
      // (The whole parameter: a key may well start with the digits of the number.)
      expect(new URLSearchParams(photo.url.split('?')[1]).get('id')).not.toBe(String(photo.id));
      // The member record refers to the file by its key.
      expect((await call('GET', `/api/m/member/${inA.id}`)).json().photo).toContain(photo.key);
      // The secretary may see this photo by its key, but not by its number, nor any number near it.
      expect((await view(secretary, photo.key)).statusCode).toBe(200);
      for (let id = photo.id - 3; id <= photo.id + 1; id++) {
        if (id > 0) expect((await view(secretary, id)).statusCode, String(id)).toBe(404);
      }
      // The uploader and file:all holders still reach their own files by number (their own lists use it).
      expect((await view(admin, photo.id)).statusCode).toBe(200);
      // A key one character off is no file.
      const forged = photo.key.slice(0, -1) + (photo.key.endsWith('0') ? '1' : '0');
      expect((await view(secretary, forged)).statusCode).toBe(404);
    });

    it('avatars stay visible to every signed-in user, by key', async () => {
      const fd = new FormData();
      fd.append('avatar', new Blob([PNG]), 'me.png');
      const res = await t.app.inject({ method: 'POST', url: '/api/users/updateAvatar', headers: bearer(secretary), payload: fd });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().avatar).toMatch(/^\/api\/file\/view\?id=[0-9a-f]{32}$/);
      expect((await t.app.inject({ url: res.json().avatar, headers: bearer(lister) })).statusCode).toBe(200);
      expect((await view(lister, res.json().file.id)).statusCode).toBe(404);
    });
  });

  describe('lookup filters from the query string (low item)', () => {
    it('numbers, lists and ranges work in GET /api/common/dyjbxx', async () => {
      const byOrg = await call('GET', `/api/common/dyjbxx?orgId=${branchA}&size=100`);
      expect(byOrg.statusCode, byOrg.body).toBe(200);
      expect(byOrg.json().content.length).toBeGreaterThan(0);
      expect(byOrg.json().content.every((m: Member) => m.orgId === branchA)).toBe(true);
      const one = await call('GET', '/api/common/dyjbxx?category=1&size=1');
      expect(one.statusCode, one.body).toBe(200);
      const both = await call('GET', '/api/common/dyjbxx?category=1,2&size=1');
      expect(both.statusCode, both.body).toBe(200);
      const repeated = await call('GET', '/api/common/dyjbxx?category=1&category=2&size=1');
      expect(repeated.json().totalElements).toBe(both.json().totalElements);
      expect(both.json().totalElements).toBeGreaterThanOrEqual(one.json().totalElements);
      const range = await call('GET', '/api/common/dyjbxx?joinDate=1900-01-01,2100-12-31&size=1');
      expect(range.statusCode, range.body).toBe(200);
      expect(range.json().totalElements).toBe((await call('GET', '/api/common/dyjbxx?size=1')).json().totalElements);
      const openEnded = await call('GET', '/api/common/dyjbxx?joinDate=2100-01-01,&size=1');
      expect(openEnded.json().totalElements).toBe(0);
      // A value of the wrong type is still a 400 with the field's name.
      expect((await call('GET', '/api/common/dyjbxx?orgId=abc')).json()).toMatchObject({ status: 400, message: '所在党支部的筛选值不正确' });
    });
  });
});
