/** My organisation's meetings as GET /api/meetings/mine answers them (the month before and after today). */
import { get } from '../../api';

export interface MyMeeting {
  id: number;
  type: string;
  topic: string;
  date: string;
  place: string | null;
  orgId: number;
  orgName: string;
  state: number;
  attended: boolean;
}

export const myMeetings = () => get<{ content: MyMeeting[] }>('/api/meetings/mine');
