import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { SCHEMAS_DIR } from '../../src/server/paths.js';
import { collectPermissions, flattenMenus, type MenuNode } from '../../src/shared/menus.js';
import { seedUniversity } from '../../src/server/seed/university/seed.js';
import { generateUniversity, type MemberSeed, type OrgSeed, type University } from '../../src/server/seed/university/university.js';
import type { Database } from '../../src/server/db/database.js';
import { bearer, login, userWithRole } from './auth.js';

/** A seeded university with the look-ups transfer tests need: members by branch, branches by committee. */
export interface TransferWorld {
  u: University;
  orgIds: Map<string, number>;
  memberIds: Map<string, number>;
  org(key: string): number;
  member(m: MemberSeed): number;
  /** Two branches under one committee (a college), each with members in good standing, and the committee. */
  sameCommittee(): { committee: OrgSeed; a: OrgSeed; b: OrgSeed };
  /** A branch under another committee than `a`'s. */
  otherCommittee(a: OrgSeed): OrgSeed;
  membersOf(branch: OrgSeed, filter?: (m: MemberSeed) => boolean): MemberSeed[];
}

export async function seedTransferWorld(database: Database, members = 400, seed = 17): Promise<TransferWorld> {
  const u = generateUniversity({ members, seed });
  const { orgIds } = await seedUniversity(database, u, 'hntb');
  const rows = await database.db.selectFrom('m_member' as never).select(['id' as never, 'id_card' as never]).execute() as { id: number; id_card: string }[];
  const byIdCard = new Map(rows.map((r) => [r.id_card, r.id]));
  const memberIds = new Map(u.members.map((m) => [m.key, byIdCard.get(m.idCard)!]));
  const membersOf = (branch: OrgSeed, filter: (m: MemberSeed) => boolean = () => true) => u.members.filter((m) => m.orgKey === branch.key && m.partyStatus === '1' && filter(m));
  const branches = u.orgs.filter((o) => ['3', '4'].includes(o.type) && membersOf(o).length >= 6);
  return {
    u,
    orgIds,
    memberIds,
    org: (key) => orgIds.get(key)!,
    member: (m) => memberIds.get(m.key)!,
    membersOf,
    sameCommittee() {
      for (const a of branches) {
        const b = branches.find((x) => x !== a && x.parentKey === a.parentKey);
        if (b) return { committee: u.orgs.find((o) => o.key === a.parentKey)!, a, b };
      }
      throw new Error('no committee with two branches holding members');
    },
    otherCommittee: (a) => branches.find((x) => x.parentKey !== a.parentKey)!,
  };
}

/** POST/PUT/GET through the real HTTP layer as `token`. */
export function client(app: FastifyInstance, token: string) {
  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) => {
    const res = await app.inject({ method, url, headers: bearer(token), ...(payload !== undefined && { payload: payload as object }) });
    return { status: res.statusCode, body: res.headers['content-type']?.toString().includes('json') ? res.json() : res.body, raw: res };
  };
  return {
    get: (url: string) => call('GET', url),
    post: (url: string, payload?: unknown) => call('POST', url, payload ?? {}),
    put: (url: string, payload: unknown) => call('PUT', url, payload),
  };
}

/** Every permission of the transfer menu (pages and buttons), as a role of any level would hold them. */
export function transferPermissions(): string[] {
  const menus = JSON.parse(fs.readFileSync(path.join(SCHEMAS_DIR, 'menus.json'), 'utf8')) as { menus: MenuNode[] };
  return [...collectPermissions(flattenMenus(menus.menus).filter((n) => n.id === 'transfer')), 'member:list', 'member:view'];
}

export interface TransferActors {
  /** The sending branch (支部书记), its committee (二级党委), the receiving committee and branch, the organisation department. */
  sendBranch: ReturnType<typeof client>;
  sendCommittee: ReturnType<typeof client>;
  recvCommittee: ReturnType<typeof client>;
  recvBranch: ReturnType<typeof client>;
  orgdept: ReturnType<typeof client>;
  userIds: Record<'sendBranch' | 'sendCommittee' | 'recvCommittee' | 'recvBranch' | 'orgdept', number>;
  /** The sending branch and the receiving branch (under another committee). */
  from: OrgSeed;
  to: OrgSeed;
}

export const ACTOR_PASS = 'Transfer#2026a';

/** Accounts at each level, holding every transfer permission, for a sending branch and a receiving branch of another college. */
export async function transferActors(app: FastifyInstance, w: TransferWorld, prefix = 'tr'): Promise<TransferActors> {
  const admin = await login(app);
  const from = w.sameCommittee().a;
  const to = w.otherCommittee(from);
  const root = w.u.orgs.find((o) => o.parentKey === null)!;
  const permissions = transferPermissions();
  const make = async (name: string, orgKey: string, dataScope: 'own' | 'all' = 'own') => {
    const username = `${prefix}${name}`;
    const id = await userWithRole(app, admin, { username, permissions, dataScope, orgId: w.org(orgKey), password: ACTOR_PASS });
    return { id, client: client(app, await login(app, username, ACTOR_PASS)) };
  };
  const sendBranch = await make('sb', from.key);
  const sendCommittee = await make('sc', from.parentKey!);
  const recvCommittee = await make('rc', to.parentKey!);
  const recvBranch = await make('rb', to.key);
  const orgdept = await make('od', root.key, 'all');
  return {
    sendBranch: sendBranch.client,
    sendCommittee: sendCommittee.client,
    recvCommittee: recvCommittee.client,
    recvBranch: recvBranch.client,
    orgdept: orgdept.client,
    userIds: { sendBranch: sendBranch.id, sendCommittee: sendCommittee.id, recvCommittee: recvCommittee.id, recvBranch: recvBranch.id, orgdept: orgdept.id },
    from,
    to,
  };
}
