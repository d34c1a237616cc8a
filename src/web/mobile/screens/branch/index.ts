/** The branch secretary's screens (record a meeting, approvals, the branch's members and their dues). */
import type { MobileScreen } from '../../screen';

export const branchScreens: MobileScreen[] = [];
