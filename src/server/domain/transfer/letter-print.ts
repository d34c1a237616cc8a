/**
 * The printable introduction letter of a transfer out: its data (for the web's print page) and the same
 * texts as an .xlsx laid out for an A4 sheet (存根, 介绍信, 回执 separated by cut lines).
 */
import ExcelJS from 'exceljs';
import { sql, type Kysely } from 'kysely';
import { addDays } from '../../../shared/calendar.js';
import { fullYearsBetween } from '../../../shared/module-schema/computed.js';
import { letterTexts, type LetterData } from '../../../shared/transfer/letter.js';
import type { ConfigStore } from '../../core/sysconfig/store.js';
import type { DictService } from '../../core/dicts/service.js';
import type { DB } from '../../db/types.js';
import { HttpError } from '../../errors.js';

interface LetterSources {
  db: Kysely<DB>;
  dicts: DictService;
  config: ConfigStore;
}

/** The letter of a transfer out as issued: 404 before a number was given; the latest number when re-issued. */
export async function letterData(src: LetterSources, transfer: Record<string, unknown>): Promise<LetterData> {
  const id = transfer.id as number;
  const letter = await src.db
    .selectFrom('transfer_letters')
    .select(['letter_no', 'status', 'issued_on'])
    .where('transfer_id', '=', id)
    .orderBy('serial', 'desc')
    .executeTakeFirst();
  if (!letter) throw new HttpError(404, '该转出尚未开具介绍信');
  const member = (
    await sql<{ gender: string | null; ethnicity: string | null; birthDate: string | null; idCard: string | null; orgId: number | null }>`
      SELECT gender, ethnicity, birth_date AS "birthDate", id_card AS "idCard", org_id AS "orgId" FROM m_member WHERE id = ${transfer.memberId as number}`.execute(src.db)
  ).rows[0];
  const orgPath = (
    await sql<OrgContact & { name: string; depth: number; type: string | null }>`
      WITH RECURSIVE up AS (SELECT id, parent_id, name, type, address, contact_phone, fax, postcode, 0 AS depth FROM m_org WHERE id = ${transfer.orgId as number}
        UNION ALL SELECT o.id, o.parent_id, o.name, o.type, o.address, o.contact_phone, o.fax, o.postcode, up.depth + 1 FROM m_org o JOIN up ON o.id = up.parent_id WHERE up.depth < 20)
      SELECT name, depth, type, address, contact_phone AS phone, fax, postcode FROM up ORDER BY depth`.execute(src.db)
  ).rows;
  const contact = await letterContact(src, orgPath);
  const [genders, ethnicities] = [await src.dicts.labels('DJ_COMM_XB'), await src.dicts.labels('DJ_COMM_MZXX')];
  const issueDate = (transfer.issueDate as string | null) ?? letter.issued_on;
  const validDays = (transfer.validDays as number | null) ?? 30;
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  return {
    transferId: id,
    letterNo: letter.letter_no,
    status: letter.status,
    kind: str(transfer.kind),
    name: str(transfer.name),
    gender: member?.gender ? (genders.get(member.gender) ?? '') : '',
    age: member?.birthDate ? fullYearsBetween(member.birthDate, issueDate) : null,
    ethnicity: member?.ethnicity ? (ethnicities.get(member.ethnicity) ?? '') : '',
    memberType: transfer.memberType === '2' ? '预备' : '正式',
    idCard: member?.idCard ?? '',
    fromOrgName: orgPath[orgPath.length - 1]?.name ?? '',
    branchName: orgPath[0]?.name ?? '',
    toOrgName: str(transfer.toOrgName),
    destination: str(transfer.destination),
    duesPaidTo: (transfer.duesPaidTo as string | null) ?? null,
    validDays,
    issueDate,
    expiryDate: addDays(issueDate, validDays),
    probation:
      transfer.memberType === '2' && transfer.joinDate && transfer.probationEnd
        ? { joinDate: transfer.joinDate as string, probationEnd: transfer.probationEnd as string, expired: (transfer.probationEnd as string) < issueDate }
        : null,
    endDate: (transfer.endDate as string | null) ?? null,
    memberPhone: str(transfer.memberPhone),
    ...contact,
  };
}

interface OrgContact {
  address: string | null;
  phone: string | null;
  fax: string | null;
  postcode: string | null;
}

/**
 * The address, telephone, fax and postcode the letter gives for the member's base committee (党员原所在基层
 * 党委): the nearest committee above the branch, each value it lacks from the school's settings
 * (transferLetter*); what neither holds stays empty and the letter leaves its line out (issue 33.10).
 */
async function letterContact(src: LetterSources, orgPath: (OrgContact & { type: string | null })[]): Promise<Record<keyof OrgContact, string>> {
  const committee = orgPath.find((o) => o.type === '1') ?? orgPath[0];
  const keys = { address: 'transferLetterAddress', phone: 'transferLetterPhone', fax: 'transferLetterFax', postcode: 'transferLetterPostcode' } as const;
  const out = {} as Record<keyof OrgContact, string>;
  for (const [field, key] of Object.entries(keys) as [keyof OrgContact, string][]) out[field] = committee?.[field]?.trim() || (await src.config.get(key)) || '';
  return out;
}

/** The letter as one A4 sheet: stub, letter and receipt, each boxed, with cut lines between. */
export function letterWorkbook(d: LetterData): ExcelJS.Workbook {
  const t = letterTexts(d);
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('组织关系介绍信', {
    pageSetup: { paperSize: 9, orientation: 'portrait', fitToPage: true, fitToWidth: 1, fitToHeight: 1, margins: { left: 0.6, right: 0.6, top: 0.6, bottom: 0.6, header: 0.3, footer: 0.3 } },
  });
  sheet.columns = [{ width: 14 }, { width: 14 }, { width: 14 }, { width: 14 }, { width: 14 }, { width: 14 }];
  const line = (text: string, opts: { bold?: boolean; size?: number; align?: 'left' | 'center' | 'right'; height?: number; indent?: boolean } = {}) => {
    const row = sheet.addRow([opts.indent ? `　　${text}` : text]);
    sheet.mergeCells(row.number, 1, row.number, 6);
    const cell = row.getCell(1);
    cell.font = { name: '宋体', size: opts.size ?? 12, bold: opts.bold };
    cell.alignment = { horizontal: opts.align ?? 'left', vertical: 'middle', wrapText: true };
    if (opts.height) row.height = opts.height;
    return row;
  };
  const cut = (label: string) => line(`- - - - - - - - - - - - - - - - - - ${label} - - - - - - - - - - - - - - - - - -`, { align: 'center', size: 9 });
  const cancelled = d.status === 'cancelled' ? '（已作废）' : '';

  line(`${t.title}${cancelled}`, { bold: true, size: 16, align: 'center', height: 28 });
  line('（存　根）', { align: 'center' });
  line(t.number, { align: 'right' });
  for (const p of t.stub) line(p, { indent: true, height: 48 });
  line(t.sealDate, { align: 'right' });
  line(t.validity, { align: 'left' });
  cut('骑缝线');

  line(`${t.title}${cancelled}`, { bold: true, size: 16, align: 'center', height: 28 });
  line(t.number, { align: 'right' });
  line(t.letter.salutation);
  for (const p of t.letter.body) line(p, { indent: true, height: 48 });
  line(t.validity);
  line('（盖章）', { align: 'right' });
  line(t.sealDate, { align: 'right' });
  for (const c of t.letter.contact) line(c, { size: 10 });
  cut('沿此线剪下');

  line(t.receipt.title, { bold: true, size: 16, align: 'center', height: 28 });
  line(t.number, { align: 'right' });
  line(t.receipt.salutation);
  line(t.receipt.body, { indent: true, height: 32 });
  line('（盖章）', { align: 'right' });
  line('　　年　　月　　日', { align: 'right' });
  return book;
}
