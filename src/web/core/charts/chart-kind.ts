/**
 * Which chart shows a set of categories, for every analysis page (issue 13 item 8): a pie while there are
 * few slices to tell apart, beyond that a bar chart sorted by count, where every category keeps a readable
 * label and its number.
 */
export const PIE_MAX_CATEGORIES = 6;

export interface Category {
  label: string;
  count: number;
}

export type ChartKind = 'pie' | 'bar';

export function chartKindOf(categories: readonly Category[]): ChartKind {
  return categories.length <= PIE_MAX_CATEGORIES ? 'pie' : 'bar';
}

/** Bars largest first (ties by label), so the eye reads a ranking. */
export function sortedForBars<T extends Category>(categories: readonly T[]): T[] {
  return [...categories].sort((a, b) => b.count - a.count || a.label.localeCompare(b.label, 'zh-CN'));
}

/** A label cut to `max` characters; the number always goes beside it, never inside the cut. */
export function shortLabel(label: string, max: number): string {
  return label.length > max ? `${label.slice(0, max - 1)}…` : label;
}
