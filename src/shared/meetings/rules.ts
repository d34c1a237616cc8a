/**
 * The rules of organisation life that are pure functions (docs/organisation-life.md): the quorum of a
 * meeting and the periods a frequency counts in. Used by the server (the `meetings.quorum` hook, the
 * compliance) and by the web form (the computed field `quorum` shows the check while the form is filled).
 */

export interface QuorumInput {
  type?: unknown;
  attendeeIds?: unknown;
  committeeSize?: unknown;
  entitled?: unknown;
  votes?: unknown;
}

export interface QuorumCheck {
  /** true: the quorum is met; false: not met; null: the type has no quorum rule or the counts are missing. */
  ok: boolean | null;
  /** The check in words, shown in the form and the list. */
  text: string;
  /** The field the refusal names. */
  field?: string;
}

const count = (ids: unknown) => (Array.isArray(ids) ? new Set(ids).size : 0);
const positive = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n > 0;

/** 《中国共产党支部工作条例（试行）》：支部委员会会议须有半数以上委员到会方可召开. */
export const COMMITTEE_RULE = '支委会须有半数以上委员到会方可召开（《中国共产党支部工作条例（试行）》）';
/** 《中国共产党支部工作条例（试行）》: a vote of the 党员大会 needs more than half of the full members entitled present. */
export const CONGRESS_RULE = '进行表决的支部党员大会，有表决权的到会人数须超过应到会人数的半数（《中国共产党支部工作条例（试行）》）';

/**
 * The quorum of a meeting: a 支委会 needs more than half of `committeeSize` present; a 支部党员大会 that
 * votes needs more than half of `entitled` (the full members entitled; probationary members attend
 * without a vote, so `attendeeIds` counted against `entitled` are the caller's full members). Exactly
 * half is not enough.
 */
export function quorumOf(m: QuorumInput): QuorumCheck {
  const present = count(m.attendeeIds);
  if (m.type === '支委会') {
    if (!positive(m.committeeSize)) return { ok: null, text: `到会${present}人；请填写支委会成员数`, field: 'committeeSize' };
    const ok = present * 2 > m.committeeSize;
    return { ok, text: `到会${present}人，应到委员${m.committeeSize}人，${ok ? '超过半数，符合' : '未超过半数，不符合'}“${COMMITTEE_RULE}”`, field: 'attendeeIds' };
  }
  if (m.type === '支部党员大会' && m.votes === true) {
    if (!positive(m.entitled)) return { ok: null, text: `到会${present}人；请填写应到会有表决权的正式党员数`, field: 'entitled' };
    const ok = present * 2 > m.entitled;
    return { ok, text: `到会${present}人，应到会${m.entitled}人，${ok ? '超过半数，可以表决' : '未超过半数，不能表决'}（${CONGRESS_RULE}）`, field: 'attendeeIds' };
  }
  return { ok: null, text: present ? `到会${present}人` : '' };
}

/** How often a frequency counts: per month ('2026-01'), per quarter ('2026-Q1') or per year ('2026'). */
export type PeriodKind = 'month' | 'quarter' | 'year';

/** The period of a 'YYYY-MM-DD' date. */
export function periodOf(date: string, per: PeriodKind): string {
  const year = date.slice(0, 4);
  const month = Number(date.slice(5, 7));
  if (per === 'year') return year;
  if (per === 'quarter') return `${year}-Q${Math.ceil(month / 3)}`;
  return `${year}-${date.slice(5, 7)}`;
}

/** Every period of a year, in order. */
export function periodsOfYear(year: number, per: PeriodKind): string[] {
  if (per === 'year') return [String(year)];
  if (per === 'quarter') return [1, 2, 3, 4].map((q) => `${year}-Q${q}`);
  return Array.from({ length: 12 }, (_, i) => `${year}-${String(i + 1).padStart(2, '0')}`);
}

const pad = (n: number) => String(n).padStart(2, '0');
const lastDayOfMonth = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

/** The last day of a period ('2026-Q1' → '2026-03-31'). */
export function periodEnd(period: string): string {
  const y = Number(period.slice(0, 4));
  const q = /^\d{4}-Q([1-4])$/.exec(period);
  const m = q ? Number(q[1]) * 3 : period.length === 4 ? 12 : Number(period.slice(5, 7));
  return `${y}-${pad(m)}-${pad(lastDayOfMonth(y, m))}`;
}

/** The period after one ('2026-12' → '2027-01', '2026-Q4' → '2027-Q1', '2026' → '2027'). */
export function nextPeriod(period: string): string {
  const y = Number(period.slice(0, 4));
  const q = /^\d{4}-Q([1-4])$/.exec(period);
  if (q) return Number(q[1]) === 4 ? `${y + 1}-Q1` : `${y}-Q${Number(q[1]) + 1}`;
  if (period.length === 4) return String(y + 1);
  const m = Number(period.slice(5, 7));
  return m === 12 ? `${y + 1}-01` : `${y}-${pad(m + 1)}`;
}
