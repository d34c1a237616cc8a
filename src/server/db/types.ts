import type { ColumnType, Generated } from 'kysely';

/** Row types of the core tables, kept in step with `migrations/`. Module tables are typed by the runtime. */
export interface AppMetaTable {
  key: string;
  value: unknown;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface UsersTable {
  id: Generated<number>;
  username: string;
  nick_name: ColumnType<string, string | undefined, string>;
  email: string | null;
  phone: string | null;
  password_hash: string;
  avatar: string | null;
  use_ukey: ColumnType<boolean, boolean | undefined, boolean>;
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  is_admin: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: ColumnType<Date, Date | undefined, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface DB {
  app_meta: AppMetaTable;
  users: UsersTable;
}
