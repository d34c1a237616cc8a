import { CadreRemindState, CadreRemindStateLabel } from '../../../shared/constants';
import { get, post, put } from '../../core/request/request';
import type { Page } from '../../core/usePagedQuery';

/** Spec §4 cadre-reminder state, with its labels. */
export const REMINDER_STATES = [
  { value: CadreRemindState.NO_START, label: CadreRemindStateLabel[CadreRemindState.NO_START], color: 'default' },
  { value: CadreRemindState.START, label: CadreRemindStateLabel[CadreRemindState.START], color: 'orange' },
  { value: CadreRemindState.FINISH, label: CadreRemindStateLabel[CadreRemindState.FINISH], color: 'success' },
] as const;

import type { ReminderDto as Reminder } from '../../../shared/reminders';

export type { Reminder };

export interface ReminderType {
  module: string;
  moduleTitle: string;
  type: string;
  title: string;
  enabled: 0 | 1;
  ahead: number;
  defaultAhead: number;
  closable: boolean;
}

export interface ReminderFilter {
  /** `module:type`, or empty for every type. */
  kind?: string;
  state?: number;
  orgId?: number;
}

export function listReminders(page: number, size: number, f: ReminderFilter): Promise<Page<Reminder>> {
  const [module, type] = f.kind ? f.kind.split(':') : [];
  return get<Page<Reminder>>('/api/reminders', { page, size, module, type, state: f.state, orgId: f.orgId });
}

export const reminderTypes = () => get<ReminderType[]>('/api/reminders/types');
export const setReminderType = (t: { module: string; type: string; enabled: 0 | 1; ahead?: number }) => put<ReminderType>('/api/reminders/types', t);
export const refreshReminders = () => post<{ counts: Record<string, Record<string, number>> }>('/api/reminders/refresh');
export const closeReminder = (id: number) => post<{ id: number; state: number }>(`/api/reminders/${id}/close`);
