import { describe, expect, it } from 'vitest';
import { addDays, addMonths, chineseDate, chineseMonth, daysBetween, isDate, isMonth } from '../../src/shared/calendar.js';
import { letterTexts, type LetterData } from '../../src/shared/transfer/letter.js';
import { duesRefusal, letterExpiry, letterNumber, letterNumberText, letterRefusal, probationEnd, sixMonthsPassed, temporaryEnded } from '../../src/shared/transfer/rules.js';

describe('calendar arithmetic on YYYY-MM-DD', () => {
  it.each([
    ['2026-03-01', 30, '2026-03-31'],
    ['2026-12-15', 30, '2027-01-14'],
    ['2024-02-28', 1, '2024-02-29'],
    ['2025-02-28', 1, '2025-03-01'],
    ['2026-03-10', -10, '2026-02-28'],
  ])('addDays(%s, %i) = %s', (date, days, expected) => {
    expect(addDays(date, days)).toBe(expected);
    expect(daysBetween(date, expected)).toBe(days);
  });

  it.each([
    ['2026-01-15', 6, '2026-07-15'],
    ['2025-08-31', 6, '2026-02-28'],
    ['2023-08-31', 6, '2024-02-29'],
    ['2026-10-31', 6, '2027-04-30'],
    ['2026-07-15', -6, '2026-01-15'],
    ['2025-03-31', 12, '2026-03-31'],
  ])('addMonths(%s, %i) = %s (month ends clamp)', (date, months, expected) => {
    expect(addMonths(date, months)).toBe(expected);
  });

  it('checks dates and months and writes them in Chinese', () => {
    expect(isDate('2026-02-29')).toBe(false);
    expect(isDate('2024-02-29')).toBe(true);
    expect(isMonth('2026-13')).toBe(false);
    expect(isMonth('2026-05')).toBe(true);
    expect(chineseDate('2026-05-04')).toBe('2026年5月4日');
    expect(chineseMonth('2026-05')).toBe('2026年5月');
  });
});

describe('introduction letter validity: day N and N+1', () => {
  // Issued 2026-03-01 with 30 days: received up to 03-31 (day 30), refused from 04-01 (day 31).
  it.each([
    [30, '2026-03-31', null],
    [30, '2026-04-01', '有效期至2026年3月31日'],
    [1, '2026-03-02', null],
    [1, '2026-03-03', '有效期至2026年3月2日'],
    [90, '2026-05-30', null],
    [90, '2026-05-31', '有效期至2026年5月30日'],
  ])('validDays %i on %s', (days, today, refusal) => {
    const issued = '2026-03-01';
    expect(letterExpiry(issued, days)).toBe(addDays(issued, days));
    const message = letterRefusal(issued, days, today);
    if (refusal === null) expect(message).toBeNull();
    else expect(message).toContain(refusal);
  });

  it('refuses a letter without dates or issued in the future', () => {
    expect(letterRefusal(null, 30, '2026-03-01')).toBe('请填写介绍信的开具日期');
    expect(letterRefusal('2026-03-01', 0, '2026-03-01')).toBe('请填写介绍信的有效天数');
    expect(letterRefusal('2026-03-02', 30, '2026-03-01')).toContain('晚于今天');
    expect(letterRefusal('2026-03-01', 30, '2026-03-01')).toBeNull();
  });
});

describe('six months: less a day and the day itself', () => {
  it.each([
    ['2026-01-15', '2026-07-14', false],
    ['2026-01-15', '2026-07-15', true],
    ['2025-08-31', '2026-02-27', false],
    ['2025-08-31', '2026-02-28', true],
    ['2026-03-31', '2026-09-29', false],
    ['2026-03-31', '2026-09-30', true],
  ])('since %s, on %s: %s', (since, today, passed) => {
    expect(sixMonthsPassed(since, today)).toBe(passed);
  });
});

describe('letter numbers, probation, dues and temporary letters', () => {
  it('numbers letters by year with a four-digit serial and prints them in the national form', () => {
    expect(letterNumber(2026, 7)).toBe('2026-0007');
    expect(letterNumber(2026, 12345)).toBe('2026-12345');
    expect(letterNumberText('2026-0007')).toBe('〔2026〕第0007号');
    expect(letterNumberText(null)).toBe('');
  });

  it('ends probation one year after admission (29 February ends on 28 February)', () => {
    expect(probationEnd('2025-06-20')).toBe('2026-06-20');
    expect(probationEnd('2024-02-29')).toBe('2025-02-28');
  });

  it('refuses a transfer out with unpaid months, naming them', () => {
    expect(duesRefusal([])).toBeNull();
    expect(duesRefusal(['2026-03', '2026-04'])).toBe('该党员尚有未交党费（2026-03、2026-04），请交清党费后再办理组织关系转出：本人可在“我的党费”中在线缴纳，或由党支部在“现场缴费”中补缴（经批准或因生活困难缓交的月份可随时补缴）');
    expect(duesRefusal(['2025-01', '2025-02', '2025-03', '2025-04', '2025-05', '2025-06', '2025-07'])).toContain('等7个月');
  });

  it('reminds about a temporary letter from the day after its end date', () => {
    expect(temporaryEnded('2026-06-30', '2026-06-30')).toBe(false);
    expect(temporaryEnded('2026-06-30', '2026-07-01')).toBe(true);
    expect(temporaryEnded(null, '2026-07-01')).toBe(false);
  });
});

describe('the letter texts (存根, 介绍信, 回执)', () => {
  const data: LetterData = {
    transferId: 1, letterNo: '2026-0012', status: 'issued', kind: '正式组织关系', name: '张三', gender: '男', age: 23, ethnicity: '汉族',
    memberType: '预备', idCard: '110101200301010011', fromOrgName: '中共某某大学委员会', branchName: '信息学院学生第一党支部',
    toOrgName: '中共某某公司委员会', destination: '某某公司', duesPaidTo: '2026-05', validDays: 30, issueDate: '2026-06-01',
    expiryDate: '2026-07-01', probation: { joinDate: '2025-12-01', probationEnd: '2026-12-01' }, endDate: null,
    memberPhone: '13800138000', address: '某某路1号', phone: '0731-1234567', fax: '', postcode: '410000',
  };

  it('fills every part of the national layout', () => {
    const t = letterTexts(data);
    expect(t.number).toBe('〔2026〕第0012号');
    expect(t.stub[0]).toBe('张三同志系中共预备党员，组织关系由中共某某大学委员会转到中共某某公司委员会（某某公司）。预备期自2025年12月1日起至2026年12月1日止。');
    expect(t.letter.salutation).toBe('中共某某公司委员会：');
    expect(t.letter.body[0]).toContain('张三同志（男），23岁，汉族，系中共预备党员，身份证号码110101200301010011');
    expect(t.letter.body[1]).toContain('该同志党费已交到2026年5月。');
    expect(t.validity).toBe('（有效期30天，至2026年7月1日）');
    expect(t.receipt.body).toBe('张三同志的党员组织关系已转达我处，特此回执。');
    expect(t.sealDate).toBe('2026年6月1日');
  });

  it('leaves blanks to fill in by hand when the dues month is unknown', () => {
    expect(letterTexts({ ...data, duesPaidTo: null }).letter.body[1]).toContain('党费已交到　　年　　月');
  });
});
