/**
 * The cadre detail's show types (spec §9 "client's show type", default full information): which of the
 * nine kinds of information a view of one cadre holds. Server (GET /api/cadre/{id}/profile) and web
 * (the 干部信息 page's switch) read this one list.
 */
import { CadreInfoType } from '../constants.js';

/** The child module of each kind of information after the basic record (x-children of `cadre`). */
export const CADRE_SECTIONS = [
  { type: CadreInfoType.RECORD, module: 'cadre-archive', title: '档案信息' },
  { type: CadreInfoType.POSITION_TITLE, module: 'cadre-post', title: '职务职称' },
  { type: CadreInfoType.EDUCATION_TRAINING, module: 'cadre-education', title: '教育培训' },
  { type: CadreInfoType.FAMILY_MEMBER, module: 'cadre-family', title: '家庭成员及社会关系' },
  { type: CadreInfoType.STUDY_EXPERIENCE, module: 'cadre-training', title: '学习培训经历' },
  { type: CadreInfoType.BASIC_ASSESSMENT, module: 'cadre-basic-assessment', title: '基本考核' },
  { type: CadreInfoType.ASSESSMENT_SITUATION, module: 'cadre-assessment', title: '年度考核结果' },
  { type: CadreInfoType.WORK_RECORD, module: 'cadre-resume', title: '简历' },
  { type: null, module: 'cadre-secondment', title: '挂职经历' },
] as const;

export const CADRE_SHOW_TYPES = {
  full: { title: '全部信息', modules: CADRE_SECTIONS.map((s) => s.module) as string[] },
  basic: { title: '基本信息', modules: [] as string[] },
  posts: { title: '职务信息', modules: ['cadre-post'] },
  resume: { title: '简历', modules: ['cadre-resume'] },
} as const;
export type CadreShowType = keyof typeof CADRE_SHOW_TYPES;
export const DEFAULT_CADRE_SHOW_TYPE: CadreShowType = 'full';

export function isCadreShowType(v: unknown): v is CadreShowType {
  return typeof v === 'string' && Object.hasOwn(CADRE_SHOW_TYPES, v);
}
