import type { ColumnType, Generated } from 'kysely';

type Stamp = ColumnType<Date, Date | undefined, Date>;
type Json<T> = ColumnType<T, string | undefined, string>;

/** Tables of migration 0260 (fill-in forms; the stored modules' table is the runtime's). */
export interface FormsTables {
  forms: {
    id: Generated<number>;
    module: string;
    title: string;
    share_type: number | null;
    share_state: number | null;
    org_ids: Json<number[]>;
    role_ids: Json<number[]>;
    deadline: ColumnType<string | null, string | null | undefined, string | null>;
    published_version: number | null;
    published_at: Date | null;
    published_by: number | null;
    created_at: Stamp;
    created_by: number | null;
  };
  form_fills: {
    form_id: number;
    org_id: number;
    state: ColumnType<number, number | undefined, number>;
    join_type: number | null;
    record_id: number | null;
    schema_version: number | null;
    comment: string | null;
    draft: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
    updated_at: Stamp;
    updated_by: number | null;
  };
}

declare module '../../db/types.js' {
  interface DB extends FormsTables {}
}
