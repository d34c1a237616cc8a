import { describe, expect, it } from 'vitest';
import {
  checkUsername,
  EMAIL_MESSAGE, ID_CARD_MESSAGE, MOBILE_MESSAGE, PIN_MESSAGE, checkEmail, checkIdCard, checkMobile, checkPin,
  idCardCheckChar, idCardInfo, isEmail, isExternal, isIdCard, isMobile, isPin,
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
