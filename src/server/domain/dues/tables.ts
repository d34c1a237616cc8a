import type { ColumnType, Generated, Kysely } from 'kysely';
import type { DB } from '../../db/types.js';

/** Row types of migration 0060 (party dues). Amounts are whole cents; bigint columns read as numbers. */
type Stamp = ColumnType<Date, Date | string | undefined, Date | string>;
type WithDefault<T> = ColumnType<T, T | undefined, T>;
type Json<T> = ColumnType<T, string, string>;

import type { DeferralKind, PaymentMethod } from '../../../shared/dues/api.js';

export type { DeferralKind, PaymentMethod };
export type AdjustmentKind = 'arrear' | 'correction';

export interface DuesTables {
  dues_settings: {
    school: string;
    base_formula: ColumnType<unknown, string | null | undefined, string | null>;
    bands: ColumnType<unknown, string | null | undefined, string | null>;
    online_provider: ColumnType<string | null, string | null | undefined, string | null>;
    online_max_cents: ColumnType<number | null, number | null | undefined, number | null>;
    updated_by: number | null;
    updated_at: Stamp;
  };
  dues_standard_confirmation: {
    org_id: number;
    year: number;
    members: number;
    monthly_cents: number;
    confirmed_by: number | null;
    confirmed_by_name: WithDefault<string>;
    confirmed_at: Stamp;
  };
  dues_batch: {
    id: Generated<number>;
    school: string;
    first_month: string;
    months: WithDefault<number>;
    title: string;
    state: WithDefault<number>;
    version: WithDefault<number>;
    members: WithDefault<number>;
    due_cents: WithDefault<number>;
    paid_members: number | null;
    paid_cents: number | null;
    remark: ColumnType<string | null, string | null | undefined, string | null>;
    created_by: number | null;
    created_at: Stamp;
    updated_by: number | null;
    updated_at: Stamp;
    configured_at: Date | null;
    started_at: Date | null;
    closed_at: Date | null;
  };
  dues_batch_month: { batch_id: number; school: string; month: string };
  dues_item: {
    id: Generated<number>;
    batch_id: number;
    member_id: number;
    org_id: number;
    category: string;
    base_cents: number | null;
    basis_points: number | null;
    standard_cents: number;
    adjust_cents: WithDefault<number>;
    due_cents: number;
    paid_cents: WithDefault<number>;
    payment_id: number | null;
    paid_at: Date | null;
  };
  dues_payment: {
    id: Generated<number>;
    school: string;
    receipt_no: string;
    kind: number;
    reverses_id: number | null;
    member_id: number;
    org_id: number;
    method: PaymentMethod;
    amount_cents: number;
    large: boolean;
    payer: WithDefault<string>;
    collector_id: number | null;
    collector: WithDefault<string>;
    reason: WithDefault<string>;
    order_id: number | null;
    created_at: Stamp;
  };
  dues_payment_line: {
    id: Generated<number>;
    payment_id: number;
    item_id: number;
    batch_id: number;
    org_id: number;
    amount_cents: number;
    due_cents: number;
  };
  dues_deferral: {
    item_id: number;
    batch_id: number;
    org_id: number;
    kind: DeferralKind;
    reason: string;
    created_by: number | null;
    created_by_name: WithDefault<string>;
    created_at: Stamp;
  };
  dues_adjustment: {
    id: Generated<number>;
    item_id: number;
    batch_id: number;
    member_id: number;
    kind: AdjustmentKind;
    source_item_id: number | null;
    amount_cents: number;
    reason: string;
    created_by: number | null;
    created_by_name: WithDefault<string>;
    created_at: Stamp;
  };
  /** A closed batch's own figures per organisation, kept at closing (migration 0095). */
  dues_batch_org: {
    batch_id: number;
    org_id: number;
    members: number;
    paid_members: number;
    deferred: number;
    due_cents: number;
    paid_cents: number;
  };
  dues_report: {
    batch_id: number;
    org_id: number;
    level: number;
    members: number;
    paid_members: number;
    deferred: number;
    due_cents: number;
    paid_cents: number;
    comment: WithDefault<string>;
    reported_by: number | null;
    reported_by_name: WithDefault<string>;
    reported_at: Stamp;
  };
  dues_waiver: {
    item_id: number;
    member_id: number;
    org_id: number;
    reason: string;
    approval: string;
    created_by: number | null;
    created_by_name: WithDefault<string>;
    created_at: Stamp;
  };
  dues_order: {
    id: Generated<number>;
    member_id: number;
    user_id: number | null;
    item_ids: Json<number[]>;
    extra_cents: WithDefault<number>;
    amount_cents: number;
    provider: string;
    status: WithDefault<number>;
    provider_ref: string | null;
    payment_id: number | null;
    message: WithDefault<string>;
    created_at: Stamp;
    finished_at: Date | null;
  };
  /** The member table as the dues area reads it (m_member, a runtime module). */
  m_member: {
    id: number;
    name: string;
    org_id: number | null;
    category: string | null;
    member_type: string | null;
    party_status: string | null;
    id_card: string | null;
    person_no: string | null;
    join_date: string | null;
  };
  m_org: { id: number; name: string; short_name: string | null; parent_id: number | null; type: string | null };
  m_dues_standard: {
    id: Generated<number>;
    school: string;
    member_id: number;
    member_name: string | null;
    org_id: number | null;
    year: number;
    category: string;
    base: string | null;
    rate: string | null;
    amount: string | null;
    rule: string | null;
    source: string | null;
    remark: string | null;
    version: WithDefault<number>;
    created_by: number | null;
    updated_by: number | null;
    updated_at: ColumnType<Date, Date | undefined, Date>;
  };
}

export type DuesDB = DB & DuesTables;
export type DuesDb = Kysely<DuesDB>;

/** The database handle (or a transaction) typed with the dues tables. */
export const duesDb = (db: Kysely<DB> | Kysely<DuesDB>): DuesDb => db as unknown as DuesDb;

/** The actor of a dues action: who, for the entries and logs. */
export interface DuesActor {
  id: number | null;
  name: string;
}
