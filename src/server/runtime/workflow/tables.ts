import type { ColumnType, Generated } from 'kysely';
import type { WorkflowResult } from '../../../shared/module-schema/workflow.js';

/** jsonb: read as parsed JSON, written as a JSON string. */
type Json<T> = ColumnType<T, string | undefined, never>;

export interface ValueText {
  field: string;
  title: string;
  text: string;
}

/** Tables of migration 0050. */
export interface WorkflowTables {
  workflow_log: {
    id: Generated<number>;
    module: string;
    record_id: number;
    transition: string;
    transition_title: string;
    from_state: number | null;
    to_state: number | null;
    result: WorkflowResult;
    level: string;
    acting_org_id: number | null;
    actor_id: number | null;
    actor_name: ColumnType<string, string | undefined, never>;
    comment: ColumnType<string, string | undefined, never>;
    step_values: Json<Record<string, unknown>>;
    value_texts: Json<ValueText[]>;
    warnings: Json<string[]>;
    ip: string | null;
    at: ColumnType<Date, Date | undefined, never>;
  };
}
