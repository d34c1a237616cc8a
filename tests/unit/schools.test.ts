import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import metaSchema from '../../schemas/meta/school.schema.json' with { type: 'json' };
import { ROOT, SCHEMAS_DIR } from '../../generators/lib/schemas.js';
import { Ajv2020, addFormats } from '../../src/shared/module-schema/ajv.js';
import { defaultSettings, getSchoolInfo, schoolInfoList } from '../../src/shared/school-branding.js';
import { SCHOOL_CODES } from '../../src/shared/schools.js';

const CODES = ['hhxy', 'jsu', 'hnzf', 'hntb', 'hncu', 'hunnu', 'xzsf', 'hnsoft', 'usc', 'dangjian', 'hut'];
const PUBLIC_DIR = path.join(ROOT, 'src/web/public');

/** A /web/... URL of a public asset as a file on disk. */
const publicFile = (url: string) => path.join(PUBLIC_DIR, url.replace(/^\/web\//, ''));

describe('school deployments (schemas/schools)', () => {
  it('[S1.S2] the school list holds exactly the 11 codes, each with school, schoolName, schoolLogo and footerTxt', () => {
    expect([...SCHOOL_CODES]).toEqual(CODES);
    expect(schoolInfoList.map((s) => s.school)).toEqual(CODES);
    for (const info of schoolInfoList) {
      for (const field of ['school', 'schoolName', 'schoolLogo', 'footerTxt'] as const) {
        expect(typeof info[field], `${info.school}.${field}`).toBe('string');
        expect(info[field].trim().length, `${info.school}.${field}`).toBeGreaterThan(0);
      }
    }
    expect(getSchoolInfo('hntb').schoolName).toBe('湖南铁道职业技术学院');
    expect(getSchoolInfo('hunnu').schoolName).toBe('湖南师范大学');
    expect(getSchoolInfo('dangjian').schoolName).toBe('党建工作管理系统');
  });

  it('every school file matches the meta-schema and is named after its code', () => {
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    addFormats(ajv);
    const validate = ajv.compile(metaSchema);
    const files = fs.readdirSync(path.join(SCHEMAS_DIR, 'schools')).filter((f) => f.endsWith('.json')).sort();
    expect(files).toEqual([...CODES].sort().map((c) => `${c}.json`));
    for (const file of files) {
      const json = JSON.parse(fs.readFileSync(path.join(SCHEMAS_DIR, 'schools', file), 'utf8'));
      expect(validate(json), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
      expect(json.school).toBe(file.replace(/\.json$/, ''));
      expect(json.footerTxt).toBe(file === 'dangjian.json'
        ? 'Copyright © 2026 党建工作管理系统 版权所有'
        : `Copyright © 2026 ${json.schoolName} 党委组织部 版权所有`);
    }
    expect(validate({ ...getSchoolInfo('hut'), school: 'nosuch' })).toBe(false);
    expect(validate({ ...getSchoolInfo('hut'), schoolLogo: 'http://elsewhere/logo.svg' })).toBe(false);
    expect(validate({ ...getSchoolInfo('hut'), caseNumber: 'anything' })).toBe(false);
    expect(validate({ ...getSchoolInfo('hut'), caseNumber: '湘ICP备12345678号-1' })).toBe(true);
  });

  it('[S1.S1] each school has its own name, logo and footer text', () => {
    const a = getSchoolInfo('hhxy');
    const b = getSchoolInfo('jsu');
    expect([a.schoolName, a.schoolLogo, a.footerTxt]).toEqual(['怀化学院', '/web/schools/hhxy.svg', 'Copyright © 2026 怀化学院 党委组织部 版权所有']);
    expect([b.schoolName, b.schoolLogo, b.footerTxt]).toEqual(['吉首大学', '/web/schools/jsu.svg', 'Copyright © 2026 吉首大学 党委组织部 版权所有']);
    expect(new Set(schoolInfoList.map((s) => s.schoolName)).size).toBe(11);
    expect(new Set(schoolInfoList.map((s) => s.schoolLogo)).size).toBe(11);
  });

  it('[S1.S3] the default school is hntb', () => {
    expect(defaultSettings.school).toBe('hntb');
    expect(getSchoolInfo().school).toBe('hntb');
    expect(getSchoolInfo(null).school).toBe('hntb');
    expect(getSchoolInfo('no-such-school').school).toBe('hntb');
    expect(defaultSettings.footerTxt).toBe('Copyright © 2026 湖南铁道职业技术学院 党委组织部 版权所有');
  });

  it('[S1.S4] exactly one school (hnsoft) has the bank-school logo strip', () => {
    const withStrip = schoolInfoList.filter((s) => s.bankStrip);
    expect(withStrip.map((s) => [s.school, s.bankStrip])).toEqual([['hnsoft', '/web/schools/bank-school-strip.svg']]);
  });

  it('every logo and the bank strip exist on disk as SVG images', () => {
    const urls = [...schoolInfoList.map((s) => s.schoolLogo), '/web/schools/bank-school-strip.svg'];
    for (const url of urls) {
      const file = publicFile(url);
      expect(fs.existsSync(file), file).toBe(true);
      const svg = fs.readFileSync(file, 'utf8');
      expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"'), file).toBe(true);
      expect(svg).toMatch(/viewBox="0 0 \d+ \d+"/);
      expect(svg).toContain('#c8161d');
      expect(svg.trimEnd().endsWith('</svg>'), file).toBe(true);
    }
    expect(fs.readFileSync(publicFile('/web/schools/bank-school-strip.svg'), 'utf8')).toContain('viewBox="0 0 240 48"');
  });
});

describe('site settings (spec section 3)', () => {
  it('[S3.E10a] the settings object has all 12 fields', () => {
    const fields = ['title', 'tagsView', 'fixedHeader', 'tokenCookieExpires', 'passCookieExpires', 'uniqueOpened', 'sidebarLogo', 'showFooter', 'school', 'footerTxt', 'caseNumber', 'schoolInfo'];
    for (const field of fields) expect(defaultSettings, field).toHaveProperty(field);
    expect(defaultSettings).toMatchObject({
      title: '党建工作管理系统',
      tagsView: true,
      fixedHeader: true,
      uniqueOpened: true,
      sidebarLogo: true,
      showFooter: true,
      school: 'hntb',
      caseNumber: getSchoolInfo('hntb').caseNumber,
    });
    expect(defaultSettings.schoolInfo).toBe(schoolInfoList);
  });

  it('[S3.E10b] tokenCookieExpires and passCookieExpires are 1', () => {
    expect(defaultSettings.tokenCookieExpires).toBe(1);
    expect(defaultSettings.passCookieExpires).toBe(1);
  });

  it('[S3.E10c] each schoolInfo entry has school, schoolName, schoolLogo and footerTxt, non-empty', () => {
    expect(defaultSettings.schoolInfo).toHaveLength(11);
    for (const entry of defaultSettings.schoolInfo) {
      expect(entry.school).toMatch(/^[a-z]+$/);
      expect(entry.schoolName.length).toBeGreaterThan(1);
      expect(entry.schoolLogo).toBe(`/web/schools/${entry.school}.svg`);
      expect(entry.footerTxt).toMatch(/^Copyright © 2026 \S+/);
    }
  });

  it('[S3.E10d] the sidebar width is 205 and its colours are configured', () => {
    expect(defaultSettings.sidebarWidth).toBe(205);
    for (const key of ['menuBg', 'menuText', 'menuActiveText', 'subMenuBg', 'subMenuHover'] as const) {
      expect(defaultSettings[key], key).toMatch(/^#[0-9a-f]{6}$/);
    }
    expect(defaultSettings.menuText).not.toBe(defaultSettings.menuBg);
    expect(defaultSettings.menuActiveText).not.toBe(defaultSettings.menuText);
  });
});
