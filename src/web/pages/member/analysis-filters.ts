export type { Analysis, Slice } from '../../../shared/member-analysis';

const pad = (n: number) => String(n).padStart(2, '0');
const dateYearsAgo = (years: number, today = new Date()) => `${today.getFullYear() - years}-${pad(today.getMonth() + 1)}-${pad(today.getDate())}`;

/** A date range of the date field such that full years since it fall in the band [lo, hi]. */
export function bandRange(band: string, today = new Date()): [string | null, string | null] {
  const [lo, hi] = band.endsWith('+') ? [Number(band.slice(0, -1)), 200] : band.split('-').map(Number);
  // Born on or before today-lo years, and after today-(hi+1) years.
  const latest = dateYearsAgo(lo, today);
  const earliest = new Date(`${dateYearsAgo(hi + 1, today)}T00:00:00`);
  earliest.setDate(earliest.getDate() + 1);
  return [`${earliest.getFullYear()}-${pad(earliest.getMonth() + 1)}-${pad(earliest.getDate())}`, latest];
}

/** The member-list filter that lists the members of one chart slice. */
export function sliceFilter(dimension: string, value: string): Record<string, unknown> {
  switch (dimension) {
    case 'ageBand':
      return { birthDate: bandRange(value) };
    case 'partyAgeBand':
      return value === 'unknown' ? { memberType: '2' } : { fullDate: bandRange(value) };
    case 'org':
      return { orgId: Number(value) };
    case 'category':
    case 'education':
      return { [dimension]: [value] };
    default:
      return { [dimension]: value };
  }
}
