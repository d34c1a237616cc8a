/** The permission of 智能提醒 (the reminders a user sees: `GET /api/reminders`). */
export const REMINDER_LIST = 'msg-remind:list';

/** A reminder as `GET /api/reminders` answers it (spec §4 states 1/2/3, enabled switch 0/1). */
export interface ReminderDto {
  id: number;
  module: string;
  recordId: number;
  type: string;
  /** The spec's numeric code of the type, where it has one (the cadre reminders' RemindType 1-6). */
  code: number | null;
  title: string;
  dueDate: string;
  state: 1 | 2 | 3;
  enabled: 0 | 1;
  moduleTitle: string;
  recordName: string;
  orgId: number | null;
  orgName: string;
  link: string | null;
  closable: boolean;
  /** Escalated (x-reminders `escalate`) for its current due date: the escalation's receivers are on it. */
  escalated: boolean;
}
