import { describe, expect, it } from 'vitest';
import {
  checkUsername,
  EMAIL_MESSAGE, ID_CARD_MESSAGE, MOBILE_MESSAGE, PIN_MESSAGE, checkEmail, checkIdCard, checkMobile, checkPin,
  idCardCheckChar, idCardInfo, isEmail, isExternal, isIdCard, isMobile, isPin,
  ID_CARD_BIRTH_MESSAGE, ID_CARD_FUTURE_MESSAGE, idCardProblem, normalizeIdCard,
} from '../../src/shared/validators.js';

// 18-digit numbers carry a GB 11643-1999 check character, so "17 digits + 5" and "17 digits + X" cannot share
// one base. These bases were chosen (and are asserted below) so that their correct check characters are 5 and X.
const BASE_CHECK_5 = '43010219900307005'; // Changsha Furong district, 1990-03-07, sequence 005 (male)
const BASE_CHECK_X = '11010519491231002'; // the well-known GB 11643 sample, 1949-12-31, sequence 002 (female)

describe('identity-card number', () => {
  it('the test bases have the check characters the tests rely on', () => {
    expect(idCardCheckChar(BASE_CHECK_5)).toBe('5');
    expect(idCardCheckChar(BASE_CHECK_X)).toBe('X');
  });

  it('[S5.V5a] empty is accepted', () => {
    expect(isIdCard('')).toBe(true);
    expect(isIdCard(null)).toBe(true);
    expect(isIdCard(undefined)).toBe(true);
    expect(checkIdCard('')).toBeUndefined();
  });

  it('[S5.V5b] 15 digits are accepted; 14 or 16 digits and 15 characters with a letter are rejected', () => {
    expect(isIdCard('110105491231002')).toBe(true);
    expect(isIdCard('11010549123100')).toBe(false);
    expect(isIdCard('1101054912310021')).toBe(false);
    expect(isIdCard('11010549123100X')).toBe(false);
    expect(isIdCard('11010549a231002')).toBe(false);
  });

  it('[S5.V5c] 17 digits + 5, + X and + x are accepted; + Y, 19 digits and X elsewhere are rejected', () => {
    expect(isIdCard(`${BASE_CHECK_5}5`)).toBe(true);
    expect(isIdCard(`${BASE_CHECK_X}X`)).toBe(true);
    expect(isIdCard(`${BASE_CHECK_X}x`)).toBe(true);
    expect(isIdCard(`${BASE_CHECK_X}Y`)).toBe(false);
    expect(isIdCard(`${BASE_CHECK_5}5`.padEnd(19, '0'))).toBe(false);
    expect(isIdCard('1101051949123100X2')).toBe(false);
    expect(isIdCard('X10105194912310022')).toBe(false);
  });

  it('[S5.V5c] 18-digit numbers with a wrong GB 11643 check character are rejected', () => {
    for (const wrong of '012346789Xx') expect(isIdCard(`${BASE_CHECK_5}${wrong}`), wrong).toBe(false);
    for (const wrong of '0123456789') expect(isIdCard(`${BASE_CHECK_X}${wrong}`), wrong).toBe(false);
    // one mistyped digit in the body breaks the checksum too
    expect(isIdCard('430102199003170055')).toBe(false);
    expect(isIdCard('110105194912310012')).toBe(false);
  });

  it('[S5.V5d] [S8.E8] an invalid number yields the Chinese message 请输入正确的身份证号', () => {
    expect(ID_CARD_MESSAGE).toBe('请输入正确的身份证号');
    expect(checkIdCard('12345')).toBe('请输入正确的身份证号');
    expect(checkIdCard(`${BASE_CHECK_5}6`)).toBe('请输入正确的身份证号');
    expect(checkIdCard(`${BASE_CHECK_5}5`)).toBeUndefined();
  });

  it('reads birth date and GB/T 2261.1 gender from valid numbers', () => {
    expect(idCardInfo(`${BASE_CHECK_5}5`)).toEqual({ birthDate: '1990-03-07', gender: '1' });
    expect(idCardInfo(`${BASE_CHECK_X}X`)).toEqual({ birthDate: '1949-12-31', gender: '2' });
    expect(idCardInfo('110105491231002')).toEqual({ birthDate: '1949-12-31', gender: '2' });
    expect(idCardInfo('110105491231001')).toEqual({ birthDate: '1949-12-31', gender: '1' });
  });

  it('idCardInfo answers null for empty, invalid or impossible birth dates', () => {
    expect(idCardInfo('')).toBeNull();
    expect(idCardInfo(`${BASE_CHECK_5}6`)).toBeNull();
    expect(idCardInfo('110105490231002')).toBeNull(); // 1949-02-31
    const feb30 = '43010219900230001';
    expect(idCardInfo(feb30 + idCardCheckChar(feb30))).toBeNull();
  });
});

describe('[issue 12] identity numbers: one stored form, real and past birth dates', () => {
  /** An 18-digit number born on `date` (YYYY-MM-DD), with its check character. */
  const bornOn = (date: string) => {
    const first17 = `430102${date.replaceAll('-', '')}005`;
    return first17 + idCardCheckChar(first17);
  };

  it('x and X are one number: the check character is stored upper-case', () => {
    expect(normalizeIdCard(`${BASE_CHECK_X}x`)).toBe(`${BASE_CHECK_X}X`);
    expect(normalizeIdCard(`${BASE_CHECK_X}X`)).toBe(`${BASE_CHECK_X}X`);
    expect(normalizeIdCard(` ${BASE_CHECK_5}5 `)).toBe(`${BASE_CHECK_5}5`);
  });

  it('a 15-digit number is widened to the 18-digit number of the same person', () => {
    // 110105 491231 002 is the 15-digit form of the GB 11643 sample 11010519491231002X.
    expect(normalizeIdCard('110105491231002')).toBe(`${BASE_CHECK_X}X`);
    expect(idCardInfo(normalizeIdCard('110105491231002'))).toEqual(idCardInfo('110105491231002'));
    // Anything else is left for validation to refuse.
    expect(normalizeIdCard('12345')).toBe('12345');
  });

  it('a birth date after today is refused; today itself is accepted (boundary)', () => {
    const today = '2026-05-20';
    expect(idCardProblem(bornOn('2026-05-20'), today)).toBeUndefined();
    expect(isIdCard(bornOn('2026-05-20'), today)).toBe(true);
    expect(idCardProblem(bornOn('2026-05-21'), today)).toBe(ID_CARD_FUTURE_MESSAGE);
    expect(checkIdCard(bornOn('2027-01-01'), today)).toBe('身份证号中的出生日期晚于今天，请核对');
    // Against the real clock: tomorrow is in the future, today is not.
    const pad = (n: number) => String(n).padStart(2, '0');
    const day = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
    const now = new Date();
    expect(isIdCard(bornOn(day(now)))).toBe(true);
    expect(isIdCard(bornOn(day(new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1))))).toBe(false);
  });

  it('an impossible birth date (31 February, month 13, before 1900) is refused with its own message', () => {
    expect(idCardProblem(bornOn('1990-02-31'))).toBe(ID_CARD_BIRTH_MESSAGE);
    expect(idCardProblem(bornOn('1990-13-01'))).toBe(ID_CARD_BIRTH_MESSAGE);
    expect(idCardProblem(bornOn('1899-12-31'))).toBe('身份证号中的出生日期不存在，请核对');
    expect(idCardProblem('110105490231002')).toBe(ID_CARD_BIRTH_MESSAGE); // 1949-02-31, old format
    expect(idCardProblem(bornOn('2000-02-29'))).toBeUndefined();
    expect(idCardProblem(bornOn('1900-02-29'))).toBe(ID_CARD_BIRTH_MESSAGE);
    // A malformed number keeps the general message.
    expect(idCardProblem('12345')).toBe(ID_CARD_MESSAGE);
  });
});

describe('other field validators', () => {
  it('[S5.V6] mobile number: 1, then 3 to 9, then 9 more digits', () => {
    expect(isMobile('13800138000')).toBe(true);
    expect(isMobile('19912345678')).toBe(true);
    expect(isMobile('12800138000')).toBe(false);
    expect(isMobile('1380013800')).toBe(false);
    expect(isMobile('138001380001')).toBe(false);
    expect(isMobile('23800138000')).toBe(false);
    expect(checkMobile('12800138000')).toBe(MOBILE_MESSAGE);
    expect(MOBILE_MESSAGE).toBe('请输入正确的手机号码');
  });

  it('[S5.V7] e-mail is checked with a standard pattern', () => {
    expect(isEmail('a.b@c.edu.cn')).toBe(true);
    expect(isEmail('zhang_san+dj@hntb.edu.cn')).toBe(true);
    for (const bad of ['a@', '@b.cn', 'ab.cn', 'a b@c.cn', 'a@b', 'a@@b.cn', '']) expect(isEmail(bad), bad).toBe(false);
    expect(checkEmail('ab.cn')).toBe(EMAIL_MESSAGE);
    expect(EMAIL_MESSAGE).toBe('请输入正确的邮箱地址');
  });

  it('[S5.V8] a link is external if it begins with http:, https:, mailto: or tel:', () => {
    for (const ok of ['http://x', 'https://x', 'mailto:a@b.cn', 'tel:10086']) expect(isExternal(ok), ok).toBe(true);
    for (const no of ['/dashboard', 'ftp://x', 'www.x.cn', 'dashboard/http:']) expect(isExternal(no), no).toBe(false);
  });

  it('[S5.V9a] PIN: letters, digits or hyphen, at least 8 characters', () => {
    expect(isPin('abcd-123')).toBe(true);
    expect(isPin('ABCDEFGH')).toBe(true);
    expect(isPin('abc-123')).toBe(false);
    expect(isPin('abcd_1234')).toBe(false);
    expect(isPin('abcd 1234')).toBe(false);
  });

  it('[S5.V9b] a 7-character PIN shows Pin码至少8位', () => {
    expect(PIN_MESSAGE).toBe('Pin码至少8位');
    expect(checkPin('abc-123')).toBe('Pin码至少8位');
    expect(checkPin('abcd-123')).toBeUndefined();
  });

  it('usernames: 2 to 32 letters, digits, underscore, dot or hyphen (one rule for the form, the API and the import)', () => {
    expect(checkUsername('zbsj_01.a-b')).toBeUndefined();
    expect(checkUsername('')).toBe('用户名不能为空');
    expect(checkUsername('a')).toBe('用户名长度为2到32个字符');
    expect(checkUsername('a'.repeat(33))).toBe('用户名长度为2到32个字符');
    expect(checkUsername('张三')).toBe('用户名只能包含字母、数字、下划线、点和短横线');
    expect(checkUsername('a b')).toBe('用户名只能包含字母、数字、下划线、点和短横线');
  });
});

describe('[issue 43.3] the interpreting validator of stored forms (no code compiled in the browser)', () => {
  it('finds the same errors as the server\'s ajv for a designed form with every kind of field', async () => {
    const { interpretSchema } = await import('../../src/shared/module-schema/interpret.js');
    const { createRecordAjv } = await import('../../src/shared/module-schema/formats.js');
    const { designedSchema } = await import('../../src/web/pages/forms/designer.js');
    const schema = designedSchema('支部活动情况', [
      { name: 'f1', title: '填报人', kind: 'text', required: true, maxLength: 4 },
      { name: 'f2', title: '人数', kind: 'number', min: 1, max: 100, required: true },
      { name: 'f3', title: '日期', kind: 'date' },
      { name: 'f4', title: '性别', kind: 'dict', dict: 'DJ_COMM_XB' },
      { name: 'f5', title: '明细', kind: 'rows', columns: [{ name: 'c1', title: '主题', type: 'string', required: true }, { name: 'c2', title: '人数', type: 'number' }] },
      { name: 'f6', title: '支部', kind: 'org' },
    ]);
    const validate = createRecordAjv().compile(schema);
    const keys = (errors: { keyword: string; instancePath: string; params: Record<string, unknown> }[]) =>
      errors.map((e) => `${e.instancePath} ${e.keyword} ${String(e.params.missingProperty ?? e.params.limit ?? e.params.format ?? e.params.additionalProperty ?? '')}`).sort();
    const cases: Record<string, unknown>[] = [
      {},
      { f1: '张三', f2: 5, f3: '2026-02-29', f5: [{ c2: 3 }, { c1: '党课', c2: 'x' }], f6: 1.5 },
      { f1: '一二三四五', f2: 0, f3: '2028-02-29', f4: '1', f5: [{ c1: '主题党日', c3: 1 }], extra: 1 },
      { f1: '李四', f2: 101, f3: '2026-13-01', f5: 'none' },
      { f1: '王五', f2: 10, f3: '2026-12-01', f4: '2', f5: [], f6: 3 },
    ];
    for (const values of cases) {
      validate(values);
      expect(keys(interpretSchema(schema as never, values)), JSON.stringify(values)).toEqual(keys((validate.errors ?? []) as never));
    }
    expect(interpretSchema(schema as never, cases[4])).toEqual([]);
  });
});
