import type { ColumnType, Generated } from 'kysely';

/**
 * Row types of the core tables of 0001/0002 (users, roles, sessions, ...), kept in step with
 * `db/migrations/`. Other areas declare theirs next to their code; the composition root (app.ts) joins
 * them all into the database type `DB`.
 */
type Created = ColumnType<Date, Date | undefined, never>;
type Updated = ColumnType<Date, Date | undefined, Date>;
type WithDefault<T> = ColumnType<T, T | undefined, T>;

export interface AppMetaTable {
  key: string;
  value: unknown;
  updated_at: Updated;
}

export interface UsersTable {
  id: Generated<number>;
  username: string;
  nick_name: WithDefault<string>;
  email: string | null;
  phone: string | null;
  gender: string | null;
  password_hash: string;
  avatar: string | null;
  use_ukey: WithDefault<boolean>;
  enabled: WithDefault<boolean>;
  org_id: number | null;
  has_left: WithDefault<boolean>;
  password_weak: WithDefault<boolean>;
  password_changed_at: Date | null;
  /** Set while the password is a one-time password an administrator issued (users/one-time-password.ts). */
  password_expires_at: WithDefault<Date | null>;
  locked_until: Date | null;
  last_login_at: Date | null;
  created_at: Created;
  updated_at: Updated;
}

export type DataScopeKind = 'all' | 'own' | 'custom';

export interface RolesTable {
  id: Generated<number>;
  name: string;
  code: string;
  description: WithDefault<string>;
  level: WithDefault<number>;
  permissions: WithDefault<string[]>;
  data_scope: WithDefault<DataScopeKind>;
  scope_org_ids: WithDefault<number[]>;
  unit_scope: WithDefault<'all' | 'custom'>;
  scope_unit_ids: WithDefault<number[]>;
  created_at: Created;
  updated_at: Updated;
}

export interface UserRolesTable {
  user_id: number;
  role_id: number;
}

export interface SessionsTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  ip: string | null;
  user_agent: string | null;
  created_at: Created;
  last_seen_at: WithDefault<Date>;
  expires_at: Date;
  /** Spec §9: PC 1, MOBILE 2 (0290). */
  terminal: WithDefault<number>;
}

export interface LoginAttemptsTable {
  id: Generated<number>;
  username: string;
  user_id: number | null;
  success: boolean;
  method: WithDefault<string>;
  ip: string | null;
  user_agent: string | null;
  at: WithDefault<Date>;
}

export interface CaptchasTable {
  uuid: string;
  answer: string;
  expires_at: Date;
}

export interface VerificationCodesTable {
  id: Generated<number>;
  target: string;
  purpose: string;
  code_hash: string;
  attempts: WithDefault<number>;
  used: WithDefault<boolean>;
  created_at: WithDefault<Date>;
  expires_at: Date;
}

export interface MessageOutboxTable {
  id: Generated<number>;
  channel: WithDefault<string>;
  target: string;
  content: string;
  purpose: string | null;
  created_at: WithDefault<Date>;
}

export interface SysConfigTable {
  id: Generated<number>;
  config_key: string;
  config_value: WithDefault<string>;
  description: WithDefault<string>;
  created_at: Created;
  updated_at: Updated;
}

/** The core tables of 0001/0002. */
export interface CoreTables {
  app_meta: AppMetaTable;
  users: UsersTable;
  roles: RolesTable;
  user_roles: UserRolesTable;
  sessions: SessionsTable;
  login_attempts: LoginAttemptsTable;
  captchas: CaptchasTable;
  verification_codes: VerificationCodesTable;
  message_outbox: MessageOutboxTable;
  sys_config: SysConfigTable;
}
