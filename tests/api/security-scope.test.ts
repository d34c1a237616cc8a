/**
 * Issue 12, data scope on details, organisations and files (items 6 and 7 and the low items on `fields=all`,
 * 403 vs 404, identity numbers and lookup filters). Each test performs the attack or reproduces the problem
 * the issue describes and checks it no longer gets through.
 */
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
  const u = generateUniversity({ members: 160, seed: 12 });

  beforeAll(async () => {
    t = await createTestApp();
    const { orgIds } = await seedUniversity(t.database, u, 'hntb');
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
    const first = async (orgId: number) => (await call('POST', '/api/m/member/list?fields=all&size=1', { orgId, partyStatus: '1' })).json().content[0] as Member;
    inA = await first(branchA);
    inB = await first(branchB);
  });
  afterAll(() => t.app.close());

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
