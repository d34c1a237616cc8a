/**
 * What a branch reads of its filling of a form (issue 43.8): the spec's collection states (CollectStatus
 * 0–3) in the words of a branch, a returned filling as 已退回 until it is submitted again, and the way it
 * came in. The numbers stay the spec's; only the labels are these.
 */
import { CollectStatus, JoinType } from './constants';

export const FILL_STATE_LABELS: Record<number, string> = {
  [CollectStatus.NO_START]: '待填报',
  [CollectStatus.STASHED_END]: '已暂存',
  [CollectStatus.COLLECT_END]: '已提交',
  [CollectStatus.IMPORT_END]: '已采纳',
};
export const RETURNED_LABEL = '已退回';

/** The label of a filling: a saved one that carries a return's comment is 已退回. */
export function fillStateLabel(state: number, comment?: string | null): string {
  if (state === CollectStatus.STASHED_END && comment) return RETURNED_LABEL;
  return FILL_STATE_LABELS[state] ?? String(state);
}

/** How a submission came in: the branch filled it online, or the collector imported a file for it. */
export const FILL_WAY_LABELS: Record<number, string> = { [JoinType.SYSTEM_IMPORT]: '在线填报', [JoinType.USER_IMPORT]: '导入文件' };
