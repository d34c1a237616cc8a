/** The member's and the applicant's screens (my record, my organisation, study, meetings, notices). */
import type { MobileScreen } from '../../screen';

export const memberScreens: MobileScreen[] = [];
