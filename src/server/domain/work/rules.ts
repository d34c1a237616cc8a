/**
 * The rules of work management (docs/work.md) as pure functions, each worded as the refusal the user reads.
 */

/** A batch's period: it ends on or after the day it starts (a one-day batch is allowed). */
export function batchDatesProblem(startDate: string | undefined, endDate: string | undefined): string | undefined {
  if (startDate && endDate && endDate < startDate) return `结束日期（${endDate}）不能早于开始日期（${startDate}）`;
}

/**
 * A task may be declared not completed (state fail 3) only once its deadline has passed: until the end of the
 * deadline's day the organisation may still report back. The day after the deadline is the first such day.
 */
export function taskOverdueProblem(deadline: string | undefined, today: string): string | undefined {
  if (deadline && today <= deadline) return `任务完成期限（${deadline}）未过，期限届满前不能认定未完成`;
}

/** A periodic report is its file: it is saved or submitted only with the file uploaded. */
export function reportFileProblem(file: string | undefined): string | undefined {
  if (!file) return '请先上传报表文件';
}
