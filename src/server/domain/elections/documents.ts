/**
 * The printable documents of an election: `GET /api/elections/{id}/documents` (the data the print page
 * draws) and `GET /api/elections/{id}/documents/xlsx?doc=ballot|tally|announcement|report`. Each counted
 * round is recounted from the ballots its 投票计票 step kept in the approval log, so the tally sheet shows
 * exactly what was counted.
 */
import ExcelJS from 'exceljs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { tallyElection } from '../../../shared/ballot.js';
import { ELECTION_DOCUMENTS, electionDocument, type ElectionDocument, type ElectionDocumentsData, type ElectionRound } from '../../../shared/ballot-documents.js';
import { parseBallotLines } from '../../../shared/ballot-sheet.js';
import { ballotOrder } from './count.js';
import { hasOwn } from '../../../shared/own.js';
import { currentUser, perm } from '../../core/auth/guard.js';
import { sendXlsx } from '../../core/xlsx.js';
import { HttpError } from '../../errors.js';
import { idList, membersOf } from './facts.js';

export async function documentRoutes(app: FastifyInstance): Promise<void> {
  const db = app.services.database.db;
  const view = app.runtime.module('election')!.permissions.view;

  async function documentsOf(req: FastifyRequest): Promise<ElectionDocumentsData> {
    const id = Number((req.params as { id: string }).id);
    if (!Number.isSafeInteger(id) || id <= 0) throw new HttpError(404, '两委换届选举记录不存在');
    const r = (await app.runtime.records('election').get(id, await app.runtime.actorOf(currentUser(req)))) as unknown as Record<string, unknown>;
    const log = (await sql<{ transition: string; step_values: Record<string, unknown>; acting_org_id: number | null; at: Date }>`
      SELECT transition, step_values, acting_org_id, at FROM workflow_log WHERE module = 'election' AND record_id = ${id} ORDER BY id`.execute(db)).rows;
    const candidates = idList(r.candidateIds);
    const elected = idList(r.electedIds);
    const deputies = idList(r.deputyIds);
    const names = await membersOf(db, [...new Set([...candidates, ...elected])], null);
    const person = (pid: number) => ({ id: pid, name: names.get(pid)?.name ?? String(pid) });
    const entitled = idList(r.voterIds).length;
    // The rounds as counted: the first on the approved list for every seat, a further one on its result.
    const rounds: ElectionRound[] = [];
    let list = candidates;
    let seats = Number(r.seats) || 0;
    for (const entry of log.filter((e) => e.transition === 'count')) {
      const v = typeof entry.step_values === 'string' ? JSON.parse(entry.step_values) : entry.step_values;
      const ballotsIssued = Number(v.ballotsIssued) || 0;
      const serials = ballotOrder(list, (pid) => person(pid).name);
      const tally = tallyElection({ seats, entitled, ballotsIssued, ballots: parseBallotLines(String(v.ballots ?? ''), serials).ballots, candidates: list });
      rounds.push({ round: rounds.length + 1, seats, entitled, ballotsIssued, candidates: list.map(person), tally, at: entry.at.toISOString() });
      if (tally.valid) [list, seats] = [tally.furtherRound, tally.seatsLeft];
    }
    const aboveId = log.find((e) => e.transition === 'approveRequest')?.acting_org_id ?? null;
    const orgName = (r.orgIdName as string) ?? '';
    const above = aboveId ? (await sql<{ name: string }>`SELECT name FROM m_org WHERE id = ${aboveId}`.execute(db)).rows[0]?.name : undefined;
    const post = (pid: number) => (pid === r.secretaryId ? '书记' : deputies.includes(pid) ? '副书记' : '委员');
    return {
      id,
      name: r.name as string,
      orgName,
      aboveName: above ?? '上级党组织',
      body: r.body as string,
      method: (r.method as string) ?? '党员大会',
      seats: (r.seats as number) ?? null,
      termYears: (r.termYears as number) ?? null,
      assemblyDate: (r.assemblyDate as string) ?? null,
      entitled,
      present: (r.present as number) ?? null,
      candidates: candidates.map(person),
      elected: elected.map((pid) => ({ ...person(pid), post: post(pid) })).sort((a, b) => ['书记', '副书记', '委员'].indexOf(a.post) - ['书记', '副书记', '委员'].indexOf(b.post)),
      rounds,
      reportDate: (r.reportDate as string) ?? null,
      termStart: (r.termStart as string) ?? null,
      termEnd: (r.termEnd as string) ?? null,
    };
  }

  app.get('/api/elections/:id/documents', { config: perm(view) }, (req) => documentsOf(req));

  app.get('/api/elections/:id/documents/xlsx', { config: perm(view) }, async (req, reply) => {
    const doc = (req.query as { doc?: string }).doc ?? 'ballot';
    if (!hasOwn(ELECTION_DOCUMENTS, doc)) throw new HttpError(400, `文书应为${Object.values(ELECTION_DOCUMENTS).join('、')}之一`);
    const d = electionDocument(doc as ElectionDocument, await documentsOf(req));
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet(ELECTION_DOCUMENTS[doc as ElectionDocument]);
    const width = Math.max(3, d.table?.head.length ?? 1);
    const paragraph = (text: string, font?: Partial<ExcelJS.Font>) => {
      const row = sheet.addRow([text]);
      sheet.mergeCells(row.number, 1, row.number, width);
      row.getCell(1).alignment = { wrapText: true, vertical: 'top' };
      if (font) row.getCell(1).font = font;
    };
    paragraph(d.title, { bold: true, size: 16 });
    for (const line of d.lines) paragraph(line);
    if (d.table) {
      sheet.addRow(d.table.head).font = { bold: true };
      for (const row of d.table.rows) sheet.addRow(row);
    }
    for (const line of d.tail) paragraph(line);
    sheet.columns.forEach((c, i) => (c.width = i === 1 ? 24 : 14));
    return sendXlsx(reply, book, `${d.title}.xlsx`);
  });
}
