/**
 * 干部任免审批表 (LRMX): the form's content as the server assembles it for a cadre, shown by the print page
 * and written to the .xlsx in the national layout; and the field-by-field preview of an .lrmx import.
 */
export interface LrmxFamilyMember {
  relation: string;
  name: string;
  /** 出生年月 as the form writes it: 1975.03 */
  birth: string;
  age: number | null;
  political: string;
  workplace: string;
}

export interface LrmxForm {
  cadreId: number;
  name: string;
  gender: string;
  /** 1978.05（47岁） */
  birth: string;
  ethnicity: string;
  nativePlace: string;
  birthPlace: string;
  joinParty: string;
  workStart: string;
  health: string;
  title: string;
  speciality: string;
  fullTimeEducation: string;
  fullTimeDegree: string;
  fullTimeSchool: string;
  partTimeEducation: string;
  partTimeDegree: string;
  partTimeSchool: string;
  currentPost: string;
  proposedPost: string;
  proposedRemoval: string;
  /** 简历: one line per entry, 1996.09--2000.07  某某大学某专业学习 */
  resume: string[];
  rewards: string;
  assessments: string;
  reason: string;
  family: LrmxFamilyMember[];
  /** The photo's URL (/api/file/view?id=...), when there is one. */
  photo: string | null;
  /** 填表时间 2026.11 */
  filledAt: string;
}

/** One difference an .lrmx import would make to a cadre's field. */
export interface LrmxChange {
  field: string;
  title: string;
  before: string;
  after: string;
}

/** `POST /api/cadre/lrmx/preview`: who the file is about, and what applying it changes. */
export interface LrmxPreview {
  name: string;
  /** The cadre it updates (matched by 身份证号, else by name and birth month), or null: a new cadre. */
  cadreId: number | null;
  version: number | null;
  changes: LrmxChange[];
  /** The résumé lines of the file, which replace the cadre's (continuity checked). */
  resume: { startDate: string; endDate: string | null; text: string }[];
  family: { relation: string; name: string; birthDate: string | null; workplace: string }[];
  /** Values of the file that match nothing here (a 民族 or 学历 not in the dictionary), kept out. */
  skipped: string[];
  /** What would refuse the import (a résumé with a gap). */
  problems: string[];
}
