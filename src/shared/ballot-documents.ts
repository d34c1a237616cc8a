/**
 * The printable documents of an election (选票, 计票单, 选举结果公告, 选举结果报告), as titled lines and tables:
 * the web prints them, the server writes them to .xlsx — one text, two outputs. The data comes from
 * `GET /api/elections/{id}/documents` (the record, names, and each counted round recounted from the ballots
 * kept in the approval log).
 */
import { chineseDate } from './calendar.js';
import { returnedWithinIssued, type ElectionTally } from './ballot.js';
import { byStrokes } from './strokes.js';

export const ELECTION_DOCUMENTS = { ballot: '选票', tally: '计票单', announcement: '选举结果公告', report: '选举结果报告' } as const;
export type ElectionDocument = keyof typeof ELECTION_DOCUMENTS;

export interface ElectionRound {
  round: number;
  seats: number;
  entitled: number;
  ballotsIssued: number;
  candidates: { id: number; name: string }[];
  tally: ElectionTally<number>;
  at: string;
}

export interface ElectionDocumentsData {
  id: number;
  name: string;
  orgName: string;
  aboveName: string;
  body: string;
  method: string;
  seats: number | null;
  termYears: number | null;
  assemblyDate: string | null;
  entitled: number;
  present: number | null;
  candidates: { id: number; name: string }[];
  elected: { id: number; name: string; post: string }[];
  rounds: ElectionRound[];
  reportDate: string | null;
  termStart: string | null;
  termEnd: string | null;
}

export interface PrintableDocument {
  title: string;
  /** Paragraphs above the table. */
  lines: string[];
  table?: { head: string[]; rows: (string | number)[][] };
  /** Paragraphs below (notes, signatures). */
  tail: string[];
  /** Checks the counters must see broken (shown in red): returned ≤ issued, valid + void = returned. */
  alerts?: string[];
}

/** The checks of one round's totals (条例: 收回的选票多于发出的选票，选举无效). */
export function roundAlerts(r: Pick<ElectionRound, 'round' | 'ballotsIssued' | 'tally'>): string[] {
  const t = r.tally;
  const out: string[] = [];
  if (!returnedWithinIssued(t.ballotsReturned, r.ballotsIssued)) out.push(`第${r.round}轮：收回选票${t.ballotsReturned}张多于发出选票${r.ballotsIssued}张，选举无效`);
  if (t.ballotsValid + t.ballotsVoid !== t.ballotsReturned) out.push(`第${r.round}轮：有效票${t.ballotsValid}张与无效票${t.ballotsVoid}张之和不等于收回选票${t.ballotsReturned}张`);
  return out;
}

const day = (d: string | null) => (d ? chineseDate(d) : '　　年　　月　　日');

export function electionDocument(doc: ElectionDocument, d: ElectionDocumentsData): PrintableDocument {
  const body = d.body === '党代会代表' ? '出席党代会代表' : d.body;
  if (doc === 'ballot') {
    const last = d.rounds.at(-1);
    const further = last && last.tally.furtherRound.length ? last : undefined;
    const candidates = byStrokes(further ? further.candidates.filter((c) => further.tally.furtherRound.includes(c.id)) : d.candidates, (c) => c.name);
    const seats = further ? further.tally.seatsLeft : (d.seats ?? 0);
    return {
      title: `${d.orgName}${further ? '另行' : ''}选举${body}选票`,
      lines: [`应选${seats}名，候选人${candidates.length}名（按姓氏笔画为序）`, '说明：赞成的在姓名下方空格内画“○”，不赞成的画“×”，弃权的不画任何符号；另选他人的，在“另选人”栏内写上其姓名并在下方空格内画“○”。所选人数多于应选名额的为废票。'],
      table: { head: ['序号', '候选人姓名', '画符号'], rows: [...candidates.map((c, i) => [i + 1, c.name, '']), ['', '另选人', '']] },
      tail: [`${d.name}　${day(d.assemblyDate)}`],
    };
  }
  if (doc === 'tally') {
    // As the counters see it: per candidate 赞成, 不赞成, 弃权 and their total; names written in (另选他人) after.
    const rows = d.rounds.flatMap((r) =>
      r.tally.votes.map((v) => {
        const result = v.elected ? '当选' : !v.writeIn && r.tally.furtherRound.includes(v.candidateId) ? '另行选举' : '';
        if (v.writeIn) return [r.round, `${v.name}（另选他人）`, v.votes, '', '', v.votes, result];
        const name = r.candidates.find((c) => c.id === v.candidateId)?.name ?? String(v.candidateId);
        return [r.round, name, v.votes, v.against, v.abstain, v.votes + v.against + v.abstain, result];
      }),
    );
    return {
      title: `${d.name}计票单`,
      lines: d.rounds.map((r) => `第${r.round}轮：应选${r.seats}名；应到会有选举权${r.entitled}人；发出选票${r.ballotsIssued}张，收回${r.tally.ballotsReturned}张，有效${r.tally.ballotsValid}张，无效${r.tally.ballotsVoid}张；${r.tally.valid ? '选举有效' : '收回选票多于发出选票，选举无效'}。`),
      table: { head: ['轮次', '候选人', '赞成', '不赞成', '弃权', '合计', '结果'], rows },
      tail: ['当选须获得赞成票超过应到会有选举权人数的一半（《中国共产党基层组织选举工作条例》）。', '监票人：　　　　　　计票人：　　　　　　总监票人：'],
      alerts: d.rounds.flatMap(roundAlerts),
    };
  }
  const electedNames = byStrokes(d.elected, (e) => e.name).map((e) => e.name).join('、');
  const posts = d.elected.filter((e) => e.post !== '委员').map((e) => `${e.name}为${e.post}`).join('，');
  if (doc === 'announcement') {
    return {
      title: `${d.orgName}选举结果公告`,
      lines: [
        `${d.orgName}于${day(d.assemblyDate)}召开${d.method}，应到会有选举权的党员${d.entitled}名，实到${d.present ?? ''}名，符合规定人数。`,
        `大会以无记名投票方式差额选举产生${body}，当选者（按姓氏笔画为序）：${electedNames}。`,
        ...(posts ? [`${body.replace('委员会', '')}委员会第一次全体会议选举${posts}。`] : []),
        '特此公告。',
      ],
      tail: [d.orgName, day(d.reportDate ?? d.assemblyDate)],
    };
  }
  return {
    title: `关于${d.orgName}换届选举结果的报告`,
    lines: [
      `${d.aboveName}：`,
      `经批准，${d.orgName}于${day(d.assemblyDate)}召开${d.method}进行换届选举。应到会有选举权的党员${d.entitled}名，实到${d.present ?? ''}名。应选${d.seats ?? ''}名，候选人${d.candidates.length}名，实行差额选举。`,
      ...d.rounds.map((r) => `第${r.round}轮投票发出选票${r.ballotsIssued}张，收回${r.tally.ballotsReturned}张，有效${r.tally.ballotsValid}张。`),
      `选举产生${body}：${electedNames}${posts ? `；委员会第一次全体会议选举${posts}` : ''}。${d.termStart && d.termEnd ? `新一届任期自${day(d.termStart)}至${day(d.termEnd)}。` : ''}`,
      '特此报告，请审批。',
    ],
    table: { head: ['姓名', '职务', '得票数'], rows: d.elected.map((e) => [e.name, e.post, lastVotes(d, e.id)]) },
    tail: [d.orgName, day(d.reportDate)],
  };
}

function lastVotes(d: ElectionDocumentsData, id: number): number | string {
  for (const r of [...d.rounds].reverse()) {
    const v = r.tally.votes.find((x) => !x.writeIn && x.candidateId === id);
    if (v) return v.votes;
  }
  return '';
}
