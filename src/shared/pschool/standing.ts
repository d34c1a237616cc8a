/**
 * A class student's standing: the class hours done against those required, the exam, and whether the
 * student has completed the class (结业). Party rule: training before a stage of development counts when
 * the class hours are done and, where the class holds an exam, the exam is passed (《中国共产党发展党员
 * 工作细则》第十二条、第十八条: 入党积极分子、发展对象须经党校集中培训, 时间一般不少于三天或不少于二十四个学时).
 */

export interface StandingInput {
  /** Hours of the class's online course nodes the student has completed. */
  onlineHours: number;
  /** Hours of offline sessions recorded by the class administrator. */
  offlineHours: number;
  /** Hours the class requires. */
  requiredHours: number;
  /** Whether the class holds an exam the student must pass. */
  examRequired: boolean;
  examPassed: boolean;
}

export interface Standing {
  hoursDone: number;
  completed: boolean;
}

export function standingOf(s: StandingInput): Standing {
  const hoursDone = Math.round((s.onlineHours + s.offlineHours) * 100) / 100;
  return { hoursDone, completed: hoursDone >= s.requiredHours && (!s.examRequired || s.examPassed) };
}

/** Certificate number: DX + year + batch type + five-digit sequence, e.g. DX2026300012. */
export function certificateNo(year: number, dxPc: number, seq: number): string {
  return `DX${year}${dxPc}${String(seq).padStart(5, '0')}`;
}
