/**
 * School deployments and the site settings of spec section 3. The branding comes from
 * schemas/schools/<code>.json, imported statically so the same module works in Vite and in Node.
 */
import dangjian from '../../schemas/schools/dangjian.json' with { type: 'json' };
import hhxy from '../../schemas/schools/hhxy.json' with { type: 'json' };
import hncu from '../../schemas/schools/hncu.json' with { type: 'json' };
import hnsoft from '../../schemas/schools/hnsoft.json' with { type: 'json' };
import hntb from '../../schemas/schools/hntb.json' with { type: 'json' };
import hnzf from '../../schemas/schools/hnzf.json' with { type: 'json' };
import hunnu from '../../schemas/schools/hunnu.json' with { type: 'json' };
import hut from '../../schemas/schools/hut.json' with { type: 'json' };
import jsu from '../../schemas/schools/jsu.json' with { type: 'json' };
import usc from '../../schemas/schools/usc.json' with { type: 'json' };
import xzsf from '../../schemas/schools/xzsf.json' with { type: 'json' };
import { DEFAULT_SCHOOL, SCHOOL_CODES, isSchoolCode, type SchoolCode } from './schools.js';

/** One school deployment (schemas/meta/school.schema.json). The first four fields are the spec's schoolInfo entry. */
export interface SchoolInfo {
  school: SchoolCode;
  schoolName: string;
  schoolLogo: string;
  footerTxt: string;
  /** ICP filing number for the footer; empty until the school supplies its own. */
  caseNumber: string;
  /** Bank-school joint project logo strip shown in the sidebar (one school only, spec section 1). */
  bankStrip?: string;
  /** JSON Merge Patches per module id applied over the module schemas for this school. */
  overrides?: Record<string, object>;
}

const files: Record<SchoolCode, unknown> = { hhxy, jsu, hnzf, hntb, hncu, hunnu, xzsf, hnsoft, usc, dangjian, hut };

function asSchoolInfo(code: SchoolCode, json: unknown): SchoolInfo {
  const info = json as SchoolInfo;
  // A file copied under the wrong name would brand one school as another: refuse it at load.
  if (!isSchoolCode(info.school) || info.school !== code) throw new Error(`schemas/schools/${code}.json names school "${info.school}"`);
  return info;
}

/** Every school deployment, in the order of SCHOOL_CODES. */
export const schoolInfoList: readonly SchoolInfo[] = SCHOOL_CODES.map((code) => asSchoolInfo(code, files[code]));

/** The branding of a school; the default school (hntb) when the code is missing or unknown. */
export function getSchoolInfo(code?: string | null): SchoolInfo {
  return schoolInfoList.find((s) => s.school === code) ?? schoolInfoList.find((s) => s.school === DEFAULT_SCHOOL)!;
}

/** The site settings of spec section 3, with the sidebar colours and width. */
export interface SiteSettings {
  title: string;
  tagsView: boolean;
  fixedHeader: boolean;
  /** Cookie expiry of the token and of the remembered password (spec: 1, in days as js-cookie reads it). */
  tokenCookieExpires: number;
  passCookieExpires: number;
  uniqueOpened: boolean;
  sidebarLogo: boolean;
  showFooter: boolean;
  school: SchoolCode;
  footerTxt: string;
  caseNumber: string;
  schoolInfo: readonly SchoolInfo[];
  /** Sidebar background, text and active-item colours (party red and gold). */
  menuBg: string;
  menuText: string;
  menuActiveText: string;
  subMenuBg: string;
  subMenuHover: string;
  /** Expanded sidebar width in px. */
  sidebarWidth: number;
}

const defaultSchool = getSchoolInfo(DEFAULT_SCHOOL);

export const defaultSettings: SiteSettings = {
  title: '党建工作管理系统',
  tagsView: true,
  fixedHeader: true,
  tokenCookieExpires: 1,
  passCookieExpires: 1,
  uniqueOpened: true,
  sidebarLogo: true,
  showFooter: true,
  school: DEFAULT_SCHOOL,
  footerTxt: defaultSchool.footerTxt,
  caseNumber: defaultSchool.caseNumber,
  schoolInfo: schoolInfoList,
  menuBg: '#8f1016',
  menuText: '#f6e3c0',
  menuActiveText: '#ffd666',
  subMenuBg: '#7a0d12',
  subMenuHover: '#64090e',
  sidebarWidth: 205,
};
