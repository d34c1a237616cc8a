/**
 * Introduction-letter numbers (组织关系介绍信编号): one yearly series per school, never reused and without
 * gaps. A number is taken in the transaction that issues the letter, so a failed issue takes its number
 * back with everything else; a cancelled (作废) letter keeps its number as cancelled, and a re-issue takes
 * the next one.
 */
import { sql, type Kysely } from 'kysely';
import { HttpError } from '../../errors.js';
import type { DB } from '../../db/types.js';
import { letterNumber } from '../../../shared/transfer/rules.js';

export interface IssuedLetter {
  year: number;
  serial: number;
  letterNo: string;
}

/**
 * Takes the next number of the school's series for `year` and records it as issued for the transfer.
 * Run it inside the issuing transaction (`trx`): concurrent issuers wait on the series row, so each
 * gets the next number in commit order.
 */
export async function issueLetterNumber(
  trx: Kysely<DB>,
  input: { school: string; year: number; transferId: number; issuedOn: string; issuedBy: number | null },
): Promise<IssuedLetter> {
  const row = await sql<{ last_serial: number }>`
    INSERT INTO transfer_letter_serial (school, year, last_serial) VALUES (${input.school}, ${input.year}, 1)
    ON CONFLICT (school, year) DO UPDATE SET last_serial = transfer_letter_serial.last_serial + 1
    RETURNING last_serial`.execute(trx);
  const serial = row.rows[0].last_serial;
  const letterNo = letterNumber(input.year, serial);
  await trx
    .insertInto('transfer_letters')
    .values({ school: input.school, year: input.year, serial, letter_no: letterNo, transfer_id: input.transferId, issued_on: input.issuedOn, issued_by: input.issuedBy })
    .execute();
  return { year: input.year, serial, letterNo };
}

/** Marks the letters still issued for a transfer as cancelled (作废); their numbers are never given again. */
export async function cancelLetters(trx: Kysely<DB>, transferId: number, reason: string): Promise<string[]> {
  const rows = await trx
    .updateTable('transfer_letters')
    .set({ status: 'cancelled', cancelled_at: new Date(), cancel_reason: reason || '作废' })
    .where('transfer_id', '=', transferId)
    .where('status', '=', 'issued')
    .returning('letter_no')
    .execute();
  return rows.map((r) => r.letter_no);
}

export interface LetterRow {
  letterNo: string;
  year: number;
  serial: number;
  transferId: number;
  status: 'issued' | 'cancelled';
  issuedOn: string;
  cancelReason: string | null;
}

/** The register of a year's letters (issued and cancelled) of transfers in the organisations given, in number order. */
export async function lettersOfYear(db: Kysely<DB>, school: string, year: number, orgIds: number[] | 'all'): Promise<LetterRow[]> {
  const scope = orgIds === 'all' ? sql`true` : orgIds.length ? sql`t.org_id = ANY(${orgIds}::int[])` : sql`false`;
  const rows = await sql<LetterRow>`
    SELECT l.letter_no AS "letterNo", l.year, l.serial, l.transfer_id AS "transferId", l.status, l.issued_on AS "issuedOn", l.cancel_reason AS "cancelReason"
    FROM transfer_letters l JOIN m_transfer_out t ON t.id = l.transfer_id
    WHERE l.school = ${school} AND l.year = ${year} AND ${scope} ORDER BY l.serial`.execute(db);
  return rows.rows;
}

/**
 * Numbers for many letters at once (毕业生批量转出): the series row steps once by `n`, so the batch's
 * letters are consecutive; `recordLetters` then registers them for their transfers. Both in the issuing
 * transaction: a failure gives every number back.
 */
export async function reserveLetterNumbers(trx: Kysely<DB>, school: string, year: number, n: number): Promise<IssuedLetter[]> {
  if (n <= 0) return [];
  const row = await sql<{ last_serial: number }>`
    INSERT INTO transfer_letter_serial (school, year, last_serial) VALUES (${school}, ${year}, ${n})
    ON CONFLICT (school, year) DO UPDATE SET last_serial = transfer_letter_serial.last_serial + ${n}
    RETURNING last_serial`.execute(trx);
  const first = row.rows[0].last_serial - n + 1;
  return Array.from({ length: n }, (_x, i) => ({ year, serial: first + i, letterNo: letterNumber(year, first + i) }));
}

/** Registers reserved letters as issued for their transfers (`transferIds[i]` holds `letters[i]`), in multi-row INSERTs. */
export async function recordLetters(trx: Kysely<DB>, input: { school: string; letters: IssuedLetter[]; transferIds: number[]; issuedOn: string; issuedBy: number | null }): Promise<void> {
  const rows = input.letters.map((l, i) => ({ school: input.school, year: l.year, serial: l.serial, letter_no: l.letterNo, transfer_id: input.transferIds[i], issued_on: input.issuedOn, issued_by: input.issuedBy }));
  try {
    for (let i = 0; i < rows.length; i += 5000) await trx.insertInto('transfer_letters').values(rows.slice(i, i + 5000)).execute();
  } catch (error) {
    // A number of the reserved run already registered (the series was changed by hand): the whole batch rolls back.
    if ((error as { code?: string }).code === '23505') throw new HttpError(409, '介绍信编号已被占用（编号序列与已开具的介绍信不一致），本次未开具任何介绍信，请联系系统管理员核对编号后重试');
    throw error;
  }
}
