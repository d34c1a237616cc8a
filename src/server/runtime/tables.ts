import type { ColumnType, Generated } from 'kysely';
import type { FieldChange, ImportRowError } from '../../shared/module-schema/api.js';

type Stamp = ColumnType<Date, Date | undefined, Date>;
type WithDefault<T> = ColumnType<T, T | undefined, T>;
/** jsonb: read as parsed JSON, written as a JSON string. */
type Json<T> = ColumnType<T, string, string>;

/** The column a field was stored in, as applied by the table sync. */
export interface AppliedColumn {
  column: string;
  /** FieldKind, or 'bigint' for integers beyond 32 bits. */
  kind: string;
  sqlType: string;
}

/** Tables of migration 0010 (module tables m_<id> are dynamic and typed by the runtime itself). */
export interface RuntimeTables {
  /** Module schemas stored at run time, every version kept (migration 0260, runtime/stored-modules.ts). */
  stored_modules: {
    module: string;
    version: number;
    /** JSON text (the fields keep their order). */
    schema: string;
    created_at: Stamp;
    created_by: number | null;
  };
  runtime_modules: {
    module: string;
    table_name: string;
    hash: string;
    columns: Json<Record<string, AppliedColumn>>;
    retired: ColumnType<Record<string, AppliedColumn & { field: string; since: string }>, string | undefined, string>;
    applied_at: Stamp;
  };
  change_records: {
    id: Generated<number>;
    module: string;
    module_code: number | null;
    record_id: number;
    type: number;
    origin: number;
    changes: Json<FieldChange[]>;
    user_id: number | null;
    username: WithDefault<string>;
    at: Stamp;
    /** The workflow record whose step wrote this change (migration 0071). */
    source_module: WithDefault<string | null>;
    source_id: WithDefault<number | null>;
  };
  /** Deleted module records with their last stored row (migration 0101). */
  deleted_records: {
    id: Generated<number>;
    module: string;
    record_id: number;
    parent_deletion_id: number | null;
    row: Json<Record<string, unknown>>;
    user_id: number | null;
    username: WithDefault<string>;
    at: Stamp;
    restored_at: WithDefault<Date | null>;
    restored_by: WithDefault<string | null>;
  };
  /** What an import adds to its job in runtime_jobs (migration 0310): state, progress and owner are the job's. */
  import_jobs: {
    job_id: number;
    module: string;
    mode: 'partial' | 'all';
    file_name: WithDefault<string>;
    imported: WithDefault<number>;
    errors: ColumnType<ImportRowError[], string | undefined, string>;
    report: Buffer | null;
  };
}
