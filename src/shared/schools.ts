/** School deployment codes of the product (spec section 1). `dangjian` stands for the product's own code. */
export const SCHOOL_CODES = ['hhxy', 'jsu', 'hnzf', 'hntb', 'hncu', 'hunnu', 'xzsf', 'hnsoft', 'usc', 'dangjian', 'hut'] as const;
export type SchoolCode = (typeof SCHOOL_CODES)[number];
export const DEFAULT_SCHOOL: SchoolCode = 'hntb';

export function isSchoolCode(value: string): value is SchoolCode {
  return (SCHOOL_CODES as readonly string[]).includes(value);
}
