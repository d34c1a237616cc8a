/**
 * The response scanner of the route matrix (issue 38, "a test that cannot be forgotten"): as a demo role,
 * call every GET route and every list/query route of the route index with ids of records in and out of the
 * role's scope, and look in each answer for (a) a stored whole identity number of a record the role may not
 * edit, (b) a phone or an address of a person outside the role's scope. A new route is scanned because the
 * index names it; nothing here names a route.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- module tables exist only at run time */
import type { Kysely } from 'kysely';
import type { SessionUser } from '../../src/server/core/auth/session-user.js';
import { SYSTEM_ACTOR } from '../../src/server/runtime/index.js';
import type { Actor } from '../../src/server/runtime/hooks.js';
import { ALL_SYSTEM_SELECT } from '../../src/server/runtime/list.js';
import type { RuntimeModule } from '../../src/server/runtime/module.js';
import { wholeFor } from '../../src/server/runtime/read-policy.js';
import { outOfScope } from '../../src/server/runtime/scope.js';
import { sensitiveFields } from '../../src/server/runtime/sensitive.js';
import { selection } from '../../src/server/runtime/decorate.js';
import { bearer } from './auth.js';
import type { TestApp } from './test-app.js';

/** Answers that are files (spreadsheets, PDFs, documents): compressed, so not scanned as text. */
const DOWNLOAD = /\/(export|xlsx|pdf|download|file|template|report)$/;
/** POST routes that only read: lists and queries. */
const READ_POST = /\/(list|run|records|query)$/;
const PERSONAL = /phone|mobile|address/i;

export interface Hit {
  route: string;
  url: string;
  kind: 'idCard' | 'personal';
  value: string;
}

export interface ScanResult {
  calls: number;
  /** Answers read as text (status 2xx, JSON or text). */
  scanned: number;
  /** How many values the role must not be served (a scan with nothing to find proves nothing). */
  forbidden: { idCards: number; personal: number };
  hits: Hit[];
}

/** What a role must not be served: whole numbers of records it may not edit, personal values of people outside its scope. */
async function forbiddenFor(t: TestApp, actor: Actor): Promise<{ idCards: Set<string>; personal: Set<string> }> {
  const runtime = t.app.runtime;
  const db = runtime.ctx.anyDb as Kysely<any>;
  const allowedIds = new Set<string>();
  const allIds = new Set<string>();
  const personalOut = new Set<string>();
  const personalIn = new Set<string>();
  for (const m of runtime.registry.list()) {
    const sensitive = sensitiveFields(m);
    if (!sensitive.length) continue;
    const rows = (await db.selectFrom(m.table).select(selection(m.columns, ALL_SYSTEM_SELECT)).execute()) as Record<string, unknown>[];
    if (!rows.length) continue;
    const whole = await wholeFor(runtime.ctx, m, actor, rows);
    const outside = await outOfScope(runtime.ctx, m, rows, actor, runtime.ctx.db, 'read');
    const personal = [...m.fields.values()].filter((f) => f.column && f.kind === 'string' && PERSONAL.test(f.name));
    rows.forEach((r, i) => {
      for (const n of sensitive) {
        const v = r[n];
        if (typeof v !== 'string' || v.length < 15) continue;
        allIds.add(v);
        if (whole[i]) allowedIds.add(v);
      }
      for (const f of personal) {
        const v = r[f.name];
        if (typeof v === 'string' && v.trim().length >= 7) (outside[i] ? personalOut : personalIn).add(v.trim());
      }
    });
  }
  return {
    idCards: new Set([...allIds].filter((v) => !allowedIds.has(v))),
    personal: new Set([...personalOut].filter((v) => !personalIn.has(v))),
  };
}

/** Ids of a module's records in the actor's scope and out of it (one of each at most). */
async function sampleIds(t: TestApp, m: RuntimeModule, actor: Actor): Promise<number[]> {
  const service = t.app.runtime.records(m.id);
  const all = (await service.list({ query: { size: 200 }, count: false }, SYSTEM_ACTOR)).content.map((r) => r.id);
  if (!all.length) return [];
  const seen = new Set((await service.list({ query: { size: 200 }, count: false }, actor)).content.map((r) => r.id));
  const inside = all.find((id) => seen.has(id));
  const outside = all.find((id) => !seen.has(id));
  return [inside, outside].filter((x): x is number => x !== undefined);
}

/** The urls one route template is called with for this role. */
async function urlsOf(t: TestApp, template: string, actor: Actor, memberIds: number[], cache: Map<string, number[]>): Promise<string[]> {
  if (!/[:*]/.test(template)) return [template];
  const runtime = t.app.runtime;
  // Only a record's own route takes the module's record ids; other parameters (a job, a change) one id.
  if (template.startsWith('/api/m/') && /:(?!id\b|module\b)[A-Za-z_]+/.test(template)) return [template.replace(/:[A-Za-z_]+/g, '1').replace(/\*$/, 'x')];
  const modules = template.includes('/:module') ? runtime.registry.list().filter((m) => runtime.registry.isStored(m.id)).map((m) => m.id) : [template.match(/^\/api\/m\/([a-z0-9-]+)\//)?.[1]];
  const urls: string[] = [];
  for (const id of modules) {
    const m = id ? runtime.module(id) : undefined;
    let ids = memberIds;
    if (m) {
      if (!cache.has(m.id)) cache.set(m.id, await sampleIds(t, m, actor));
      ids = cache.get(m.id)!;
    }
    for (const n of ids.length ? ids : [1]) urls.push(template.replace('/:module', `/${id}`).replace(/:[A-Za-z_]+/g, String(n)).replace(/\*$/, 'x'));
  }
  return urls;
}

/** Scans every readable route of the index as the user signed in with `token`. */
export async function scanResponses(t: TestApp, routes: string[], token: string): Promise<ScanResult> {
  const info = (await t.app.inject({ url: '/auth/info', headers: bearer(token) })).json() as SessionUser;
  const actor = await t.app.runtime.actorOf(info);
  const forbidden = await forbiddenFor(t, actor);
  const memberIds = await sampleIds(t, t.app.runtime.module('member')!, actor);
  const cache = new Map<string, number[]>();
  const hits: Hit[] = [];
  let calls = 0;
  let scanned = 0;
  for (const route of routes) {
    const [method, template] = route.split(' ');
    if (method === 'GET' ? DOWNLOAD.test(template) : method !== 'POST' || !READ_POST.test(template)) continue;
    for (const url of await urlsOf(t, template, actor, memberIds, cache)) {
      const res = await t.app.inject({ method: method as 'GET', url, headers: bearer(token), ...(method === 'POST' && { payload: {} }) });
      calls++;
      if (res.statusCode >= 300 || !/json|text/.test(String(res.headers['content-type']))) continue;
      scanned++;
      const body = res.body;
      for (const v of body.match(/\d{17}[\dXx]|\d{15}/g) ?? []) if (forbidden.idCards.has(v)) hits.push({ route, url, kind: 'idCard', value: v });
      for (const v of forbidden.personal) if (body.includes(v)) hits.push({ route, url, kind: 'personal', value: v });
    }
  }
  return { calls, scanned, forbidden: { idCards: forbidden.idCards.size, personal: forbidden.personal.size }, hits };
}
