/**
 * What the transfer area needs to know of a member's party dues, behind a small interface: the dues area
 * (domain/dues) is wired in by the composition root. Until it is, nothing is known: a transfer is not
 * held up and the letter's "党费交至" is left for the person issuing it to fill in.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';

export interface DuesStanding {
  /** The last month paid without a break ('YYYY-MM'), null when none or unknown. */
  paidUpTo: string | null;
  /** Due months not paid, oldest first ('YYYY-MM'). */
  unpaidMonths: string[];
}

/** A member's dues standing; null when the dues area has no record of the member (unknown: allowed). */
export type DuesStatusSource = (db: Kysely<DB>, memberId: number) => Promise<DuesStanding | null>;

/** 自行脱党 candidates: members whose dues are unpaid six months in a row without a proper reason (党章第九条). */
export interface LapseCandidate {
  memberId: number;
  name: string;
  orgId: number;
  /** The unpaid months, oldest first. */
  months: string[];
}
export type LapseCandidateSource = (db: Kysely<DB>, orgIds: number[] | 'all') => Promise<LapseCandidate[]>;

/** Many members at once (a batch of graduates): the standing of each the dues area knows. */
export type DuesStatusesSource = (db: Kysely<DB>, memberIds: number[]) => Promise<Map<number, DuesStanding>>;

const unknownStanding: DuesStatusSource = async () => null;

let duesSource: DuesStatusSource = unknownStanding;
let lapseSource: LapseCandidateSource | null = null;
let manySource: DuesStatusesSource | null = null;

/** The composition root plugs the dues area in here (src/server/seams.ts). */
export function setDuesSources(sources: { status?: DuesStatusSource; statuses?: DuesStatusesSource; lapse?: LapseCandidateSource | null }): void {
  if (sources.status) duesSource = sources.status;
  if (sources.statuses) manySource = sources.statuses;
  if (sources.lapse !== undefined) lapseSource = sources.lapse;
}

export function duesStanding(db: Kysely<DB>, memberId: number): Promise<DuesStanding | null> {
  return duesSource(db, memberId);
}

/** The standings of many members in one read (or one by one when the dues area gives no batch read). */
export async function duesStandings(db: Kysely<DB>, memberIds: number[]): Promise<Map<number, DuesStanding>> {
  if (manySource) return manySource(db, memberIds);
  const out = new Map<number, DuesStanding>();
  for (const id of memberIds) {
    const s = await duesSource(db, id);
    if (s) out.set(id, s);
  }
  return out;
}

/** Null when no dues area is wired in (the page says so instead of showing an empty list). */
export async function lapseCandidates(db: Kysely<DB>, orgIds: number[] | 'all'): Promise<LapseCandidate[] | null> {
  return lapseSource ? lapseSource(db, orgIds) : null;
}
