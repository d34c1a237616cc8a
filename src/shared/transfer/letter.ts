/**
 * The introduction letter of a transfer out (中国共产党党员组织关系介绍信) in the national layout: the stub
 * kept by the issuer (存根), the letter the member carries (介绍信), and the receipt the receiving
 * organisation sends back (回执). The server fills `LetterData` (GET /api/transfers/letters/{id}); the web's
 * print page and the server's .xlsx both write the texts of `letterTexts`, so they cannot drift apart.
 */
import { chineseDate, chineseMonth } from '../calendar.js';
import { letterNumberText } from './rules.js';

export interface LetterData {
  transferId: number;
  letterNo: string;
  /** 'cancelled': the letter was cancelled (作废); printed with a mark. */
  status: 'issued' | 'cancelled';
  kind: string;
  name: string;
  gender: string;
  age: number | null;
  ethnicity: string;
  /** 正式 or 预备. */
  memberType: string;
  idCard: string;
  /** The party committee issuing the letter (the member's organisation at the top of the tree). */
  fromOrgName: string;
  /** The member's branch. */
  branchName: string;
  toOrgName: string;
  destination: string;
  duesPaidTo: string | null;
  validDays: number;
  issueDate: string;
  expiryDate: string;
  /** Probationary members: the probation dates the receiving organisation continues. */
  probation: { joinDate: string; probationEnd: string; /** Ended before the letter's date without a decision on full membership. */ expired?: boolean } | null;
  endDate: string | null;
  memberPhone: string;
  address: string;
  phone: string;
  fax: string;
  postcode: string;
}

export interface LetterTexts {
  title: string;
  number: string;
  stub: string[];
  letter: { salutation: string; body: string[]; contact: string[] };
  receipt: { title: string; salutation: string; body: string };
  sealDate: string;
  validity: string;
}

const blank = (value: string | null | undefined, width = 6) => (value && String(value).trim()) || '　'.repeat(width);

export function letterTexts(d: LetterData): LetterTexts {
  const number = letterNumberText(d.letterNo);
  const dues = d.duesPaidTo ? chineseMonth(d.duesPaidTo) : '　　年　　月';
  const to = d.destination ? `${d.toOrgName}（${d.destination}）` : d.toOrgName;
  // An expired probation is not printed as current: the receiving side has a decision on full membership to make (issue 33.10).
  const probation = !d.probation
    ? ''
    : d.probation.expired
      ? `预备期自${chineseDate(d.probation.joinDate)}起，已于${chineseDate(d.probation.probationEnd)}期满，尚未讨论转正（预备期已满、待转正）。`
      : `预备期自${chineseDate(d.probation.joinDate)}起至${chineseDate(d.probation.probationEnd)}止。`;
  const temporary = d.kind === '临时组织关系' && d.endDate ? `临时组织关系至${chineseDate(d.endDate)}止。` : '';
  return {
    title: '中国共产党党员组织关系介绍信',
    number,
    stub: [`${blank(d.name)}同志系中共${d.memberType}党员，组织关系由${blank(d.fromOrgName)}转到${blank(to)}。${probation}${temporary}`],
    letter: {
      salutation: `${blank(d.toOrgName)}：`,
      body: [
        `${blank(d.name)}同志（${blank(d.gender, 1)}），${d.age ?? '　　'}岁，${blank(d.ethnicity, 2)}，系中共${d.memberType}党员，身份证号码${blank(d.idCard, 9)}，由${blank(d.fromOrgName)}去${blank(to)}，请转接组织关系。`,
        `该同志党费已交到${dues}。${probation}${temporary}`,
      ],
      // A value nobody holds leaves its part out rather than printing a label with nothing after it.
      contact: [
        d.memberPhone && `党员联系电话或其他联系方式：${d.memberPhone}`,
        d.address && `党员原所在基层党委通讯地址：${d.address}`,
        [d.phone && `联系电话：${d.phone}`, d.fax && `传真：${d.fax}`, d.postcode && `邮编：${d.postcode}`].filter(Boolean).join('　　'),
      ].filter(Boolean),
    },
    receipt: {
      title: '中国共产党党员组织关系介绍信回执',
      salutation: `${blank(d.fromOrgName)}：`,
      body: `${blank(d.name)}同志的党员组织关系已转达我处，特此回执。`,
    },
    sealDate: chineseDate(d.issueDate),
    validity: `（有效期${d.validDays}天，至${chineseDate(d.expiryDate)}）`,
  };
}
