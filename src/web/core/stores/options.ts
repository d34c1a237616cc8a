import { create } from 'zustand';
import type { CadreShowType } from '../../../shared/cadre/show-types';

export interface Option {
  value: string;
  label: string;
}

/** Grades (年级) for the current and previous years: '2026' → 2026级. */
export function gradeOptions(year = new Date().getFullYear(), back = 6): Option[] {
  return Array.from({ length: back + 1 }, (_, i) => String(year - i)).map((y) => ({ value: y, label: `${y}级` }));
}

/** Years (年度) for statistics and batches. */
export function yearOptions(year = new Date().getFullYear(), back = 10): Option[] {
  return Array.from({ length: back + 1 }, (_, i) => String(year - i)).map((y) => ({ value: y, label: `${y}年度` }));
}

/** Member categories (人员类别, dictionary DJ_DY_RYLBXX) as the pickers show them. */
export const RYLB_OPTIONS: Option[] = [
  { value: '1', label: '在职教职工' },
  { value: '2', label: '离退休教职工' },
  { value: '3', label: '研究生' },
  { value: '4', label: '本科生' },
  { value: '5', label: '专科生' },
  { value: '9', label: '其他' },
];

/** The dictionaries of the development of new members (发展党员): stage of the target. */
export const DEVELOPMENT_DICTS = ['DJ_FZ_JD'] as const;

interface OptionsState {
  njOptions: Option[];
  rylbOptions: Option[];
  ndOptions: Option[];
  /** Dictionary codes the development pages load (their entries come from the dictionary cache). */
  developmentDicts: readonly string[];
}

/** Option lists the business pages share (spec §3 client state). */
export const useOptions = create<OptionsState>(() => ({
  njOptions: gradeOptions(),
  rylbOptions: RYLB_OPTIONS,
  ndOptions: yearOptions(),
  developmentDicts: DEVELOPMENT_DICTS,
}));

/** The cadre detail's show types (src/shared/cadre/show-types.ts): full information, or a short view. */
export const CADRE_SHOW_TYPE = { FULL: 'full', BASIC: 'basic', POSTS: 'posts', RESUME: 'resume' } as const satisfies Record<string, CadreShowType>;

interface CadreState {
  tagOptions: Option[];
  stationOptions: Option[];
  deptOptions: Option[];
  /** How a cadre's record is shown; 'full information' (全部信息) by default. */
  showType: (typeof CADRE_SHOW_TYPE)[keyof typeof CADRE_SHOW_TYPE];
  /** The cadre whose record is open. */
  viewing: { id: number; name: string } | null;
  setViewing(person: { id: number; name: string } | null): void;
  setShowType(type: CadreState['showType']): void;
  setOptions(options: Partial<Pick<CadreState, 'tagOptions' | 'stationOptions' | 'deptOptions'>>): void;
}

/** Client state of the cadre pages (spec §3): filled by the cadre module. */
export const useCadreStore = create<CadreState>((set) => ({
  tagOptions: [],
  stationOptions: [],
  deptOptions: [],
  showType: CADRE_SHOW_TYPE.FULL,
  viewing: null,
  setViewing: (viewing) => set({ viewing }),
  setShowType: (showType) => set({ showType }),
  setOptions: (options) => set(options),
}));
