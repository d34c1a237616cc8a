import type { ColumnType, Generated } from 'kysely';

type Stamp = ColumnType<Date, Date | undefined, Date>;
type WithDefault<T> = ColumnType<T, T | undefined, T>;

/** Tables of migration 0070 (the transfer records themselves are runtime modules). */
export interface TransferTables {
  transfer_letter_serial: {
    school: string;
    year: number;
    last_serial: number;
  };
  transfer_letters: {
    id: Generated<number>;
    school: string;
    year: number;
    serial: number;
    letter_no: string;
    transfer_id: number;
    status: WithDefault<'issued' | 'cancelled'>;
    issued_on: string;
    issued_by: number | null;
    cancelled_at: Date | null;
    cancel_reason: string | null;
    created_at: Stamp;
  };
  party_status_decisions: {
    id: Generated<number>;
    member_id: number;
    kind: 'stop' | 'restore';
    decided_on: string;
    reason: string;
    previous_status: string | null;
    user_id: number | null;
    username: WithDefault<string>;
    at: Stamp;
  };
}
