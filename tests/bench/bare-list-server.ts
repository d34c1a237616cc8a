/**
 * The bare-SQL floor of `npm run bench api`: node:http + pg on the project's own m_member table, answering
 * `POST /list` with the same JSON as `POST /api/m/member/list` (list columns, dictionary labels, organisation
 * names, computed ages; the same page and count) and nothing else: no auth, no validation, no framework.
 * Labels come from the dictionaries read once at start; organisation names from a join; page and count
 * are two statements on one pooled connection (the least a server answering `{content, totalElements}`
 * does). `TEXT_CONDITION=plain` searches names with a bare ILIKE (no index can serve it: the "before").
 * Filters: `orgId` (one branch, no subtree), `name` (contains), `category` (in). Sorts: `joinDate`, `id`.
 */
import http from 'node:http';
import pg from 'pg';
import { computeField, localToday } from '../../src/shared/module-schema/computed.js';

const DATE_OID = 1082;
const INT8_OID = 20;
const types = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    oid === DATE_OID ? (v: string) => v : oid === INT8_OID ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text'),
};
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10, types });
const plainText = process.env.TEXT_CONDITION === 'plain';

/** The list columns of member (schemas/modules/member.json), with their dictionaries. */
const DICTS: Record<string, string> = {
  gender: 'DJ_COMM_XB',
  ethnicity: 'DJ_COMM_MZXX',
  education: 'DJ_DY_XLXX',
  category: 'DJ_DY_RYLBXX',
  memberType: 'DJ_DYJBXX_RYLX',
  partyStatus: 'DJ_DY_DJZTXX',
};
const labels = new Map<string, Map<string, string>>();
for (const r of (await pool.query<{ dict_code: string; value: string; label: string }>('SELECT dict_code, value, label FROM dict_details')).rows) {
  if (!labels.has(r.dict_code)) labels.set(r.dict_code, new Map());
  labels.get(r.dict_code)!.set(r.value, r.label);
}

const SELECT = `SELECT m.id, m.version, m.name, m.gender, m.ethnicity, m.birth_date, m.id_card, m.education, m.category, m.member_type,
  m.party_status, m.join_date, m.full_date, m.org_id, coalesce(o.name, '') AS org_name, o.id AS org_found, m.phone
  FROM m_member m LEFT JOIN m_org o ON o.id = m.org_id`;
const ORDER: Record<string, string> = { 'joinDate,desc': 'm.join_date DESC, m.id DESC', 'id,desc': 'm.id DESC' };

function where(filter: Record<string, unknown>, params: unknown[]): string {
  const parts: string[] = [];
  if (typeof filter.orgId === 'number') parts.push(`m.org_id = $${params.push(filter.orgId)}`);
  if (typeof filter.name === 'string') {
    const text = filter.name;
    const pattern = `$${params.push(`%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)}`;
    // The character index's condition as the runtime writes it (src/server/db/text-search.ts), so both
    // sides use the same index; TEXT_CONDITION=plain: the ILIKE alone, as before the index.
    if (plainText) parts.push(`m.name ILIKE ${pattern}`);
    else {
      const lowered = `lower($${params.push(text)}::text)`;
      parts.push(`(string_to_array(lower(m.name), NULL) @> string_to_array(${lowered}, NULL) AND (char_length(${lowered}) <= 1 OR m.name ILIKE ${pattern}))`);
    }
  }
  if (Array.isArray(filter.category)) parts.push(`m.category = ANY($${params.push(filter.category)}::text[])`);
  return parts.length ? ` WHERE ${parts.join(' AND ')}` : '';
}

async function list(filter: Record<string, unknown>, query: URLSearchParams): Promise<string> {
  const page = Number(query.get('page') ?? 0);
  const size = Number(query.get('size') ?? 10);
  const params: unknown[] = [];
  const cond = where(filter, params);
  const client = await pool.connect();
  try {
    const rows = (await client.query(`${SELECT}${cond} ORDER BY ${ORDER[query.get('sort') ?? 'id,desc']} LIMIT ${size} OFFSET ${page * size}`, params)).rows;
    const total = (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM m_member m${cond}`, params)).rows[0].n;
    const today = localToday();
    const label = (field: string, v: unknown) => (v == null ? null : (labels.get(DICTS[field])!.get(String(v)) ?? String(v)));
    const content = rows.map((r) => ({
      id: r.id,
      version: r.version,
      name: r.name,
      gender: r.gender,
      genderLabel: label('gender', r.gender),
      ethnicity: r.ethnicity,
      ethnicityLabel: label('ethnicity', r.ethnicity),
      age: computeField({ fn: 'age', args: ['b'] }, { b: r.birth_date }, today),
      idCard: r.id_card,
      education: r.education,
      educationLabel: label('education', r.education),
      category: r.category,
      categoryLabel: label('category', r.category),
      memberType: r.member_type,
      memberTypeLabel: label('memberType', r.member_type),
      partyStatus: r.party_status,
      partyStatusLabel: label('partyStatus', r.party_status),
      joinDate: r.join_date,
      fullDate: r.full_date,
      partyAge: computeField({ fn: 'partyAge', args: ['f'] }, { f: r.full_date }, today),
      orgId: r.org_id,
      orgIdName: r.org_found == null ? null : r.org_name,
      phone: r.phone,
    }));
    return JSON.stringify({ content, totalElements: total });
  } finally {
    client.release();
  }
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  if (url.pathname === '/api/health') return res.end('{"status":"ok"}');
  if (req.method !== 'POST' || url.pathname !== '/list') return res.writeHead(404).end();
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    list(JSON.parse(Buffer.concat(chunks).toString() || '{}') as Record<string, unknown>, url.searchParams).then(
      (body) => res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(body),
      (err: Error) => res.writeHead(500).end(err.message),
    );
  });
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  process.stdout.write(`bare list server is running: http://127.0.0.1:${port}\n`);
});
process.on('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));
