import { CollectStatus, ShareState, ShareStateLabel } from '../../../shared/constants';
import { fillStateLabel } from '../../../shared/form-fill';

/** Tag colours of the collection states (spec §4 CollectStatus). */
export const STATE_COLORS: Record<number, string> = {
  [CollectStatus.NO_START]: 'default',
  [CollectStatus.STASHED_END]: 'orange',
  [CollectStatus.COLLECT_END]: 'blue',
  [CollectStatus.IMPORT_END]: 'green',
};

/** The branch's words for a filling's state (已退回 when a saved one carries a return's comment). */
export const stateLabel = (state: number, comment?: string | null) => fillStateLabel(state, comment);

/** 草稿 before publication, then the spec's share states. */
export const shareLabel = (state: number | null) => (state === null ? '草稿' : (ShareStateLabel[state as 1] ?? String(state)));
export const isSharing = (state: number | null) => state === ShareState.SHARING;
