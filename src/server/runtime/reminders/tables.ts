import type { ColumnType, Generated } from 'kysely';

type Stamp = ColumnType<Date, Date | undefined, Date>;

/** Tables of migration 0120 (x-reminders). */
export interface ReminderTables {
  reminders: {
    id: Generated<number>;
    module: string;
    record_id: number;
    type: string;
    title: string;
    due_date: string;
    state: number;
    receivers: ColumnType<number[], number[] | undefined, number[]>;
    org_id: number | null;
    /** The record's unit, for modules scoped by units (migration 0210). */
    unit_id: ColumnType<number | null, number | null | undefined, number | null>;
    /** The expected organisation (or person) of a reminder from an expected-record source, else 0 (migration 0320). */
    expected_key: ColumnType<number, number | undefined, number>;
    /** The publication's name and link, as an expected-record source gives them (null for a record's own reminders). */
    record_name: ColumnType<string | null, string | null | undefined, string | null>;
    link: ColumnType<string | null, string | null | undefined, string | null>;
    announced_due: string | null;
    closed_due: string | null;
    /** The due date the reminder was escalated for (x-reminders `escalate`, migration 0511). */
    escalated_due: ColumnType<string | null, string | null | undefined, string | null>;
    closed_by: number | null;
    updated_at: Stamp;
  };
  reminder_settings: {
    module: string;
    type: string;
    enabled: ColumnType<number, number | undefined, number>;
    ahead_days: number | null;
    updated_by: number | null;
    updated_at: Stamp;
  };
  reminder_outbox: {
    id: Generated<number>;
    reminder_id: number;
    module: string;
    user_ids: number[];
    title: string;
    content: ColumnType<string, string | undefined, string>;
    link: string | null;
    attempts: ColumnType<number, number | undefined, number>;
    next_attempt_at: Stamp;
    last_error: string | null;
    sent_at: Date | null;
    created_at: Stamp;
  };
}
