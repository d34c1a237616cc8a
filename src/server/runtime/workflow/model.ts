/**
 * A module's `x-workflow` as the engine uses it: transitions with their defaults, their fields as the
 * runtime knows fields, and a validator of each step's values (compiled once, on first use).
 */
import { entryValue } from '../../../shared/module-schema/params.js';
import type { ValidateFunction } from 'ajv';
import type { Ajv } from '../../../shared/module-schema/ajv.js';
import type { FieldSchema } from '../../../shared/module-schema/types.js';
import {
  declaredLevels,
  isWaitingStep,
  nextLevels,
  stateTitle,
  transitionsOf,
  type TransitionInfo,
  type WorkflowLevel,
  type WorkflowSchema,
  type WorkflowState,
} from '../../../shared/module-schema/workflow.js';
import { translateAjvError, type FieldError } from '../../../shared/validation-messages.js';
import { FORMAT_MESSAGES } from '../../../shared/validators.js';
import { ownValue } from '../../../shared/own.js';
import type { FieldInfo } from '../module.js';
import { isBlank } from '../../../shared/module-schema/fields.js';

export interface Step extends TransitionInfo {
  /** The module fields and the step's own fields, as field infos (own fields have no column). */
  inputs: FieldInfo[];
}


export class Workflow {
  /** Keyed by the transition's key (several may share a step id, see `stepFor`). */
  readonly transitions = new Map<string, Step>();
  readonly stateField: FieldInfo;
  readonly selfField?: FieldInfo;
  readonly otherField?: FieldInfo;
  readonly effects: string[];
  readonly params: Record<string, unknown>;
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(
    readonly moduleId: string,
    readonly schema: WorkflowSchema,
    fields: Map<string, FieldInfo>,
    makeField: (name: string, schema: FieldSchema) => FieldInfo,
    private readonly ajv: Ajv,
  ) {
    this.stateField = fields.get(schema.stateField)!;
    if (schema.selfField) this.selfField = fields.get(schema.selfField);
    if (schema.otherField) this.otherField = fields.get(schema.otherField);
    this.effects = schema.effects ?? [];
    // The values (a declaration's default); guards get the registry's values in force (runtime/params/).
    this.params = Object.fromEntries(Object.entries(schema.params ?? {}).map(([k, v]) => [k, entryValue(v)]));
    for (const t of transitionsOf(moduleId, schema)) {
      const inputs = [
        ...t.fields.map((name) => fields.get(name)!).filter(Boolean),
        ...Object.entries(t.stepFields).map(([name, f]) => ({ ...makeField(name, f), column: null, storage: null })),
      ];
      this.transitions.set(t.key, { ...t, inputs });
    }
  }

  get initial(): number {
    return this.schema.initial;
  }

  state(code: unknown): WorkflowState | undefined {
    return this.schema.states[String(code)];
  }

  stateTitle(code: unknown): string {
    return stateTitle(this.schema, code);
  }

  /** State code → title, for labels in answers and exports. */
  stateLabels(): Map<string, string> {
    return new Map(Object.entries(this.schema.states).map(([code, s]) => [code, s.title]));
  }

  /** The transitions a step id names (one, or one per level when several share the id). */
  stepsNamed(id: string): Step[] {
    return [...this.transitions.values()].filter((t) => t.id === id);
  }

  /** The transition a step id means for a record in `state`: the one open from it, else the first of that id. */
  stepFor(id: string, state?: number | null): Step | undefined {
    const named = this.stepsNamed(id);
    return (state !== undefined && state !== null ? named.find((t) => t.from.includes(state)) : undefined) ?? named.find((t) => t.key === id) ?? named[0];
  }

  /** Steps that make a record wait for someone: state-changing approvals and open filings. */
  waitingSteps(): Step[] {
    return [...this.transitions.values()].filter(isWaitingStep);
  }

  /** The levels that may take a step on a record in this state (`next` resolved). */
  levelsOf(t: Step, state: number): WorkflowLevel[] {
    const declared = declaredLevels(t);
    return declared === 'next' ? nextLevels(this.moduleId, this.schema, state) : declared;
  }

  /** Whether a step is open for a record: from its state, and (a filing) not yet done. */
  isOpen(t: Step, record: Record<string, unknown>): boolean {
    if (!t.from.includes(record[this.stateField.name] as number)) return false;
    return !t.doneField || isBlank(record[t.doneField]);
  }

  /**
   * Checks a step's values against the fields it takes (types, formats, bounds, required): field
   * messages in Chinese, as for writes. Values must be the blank-free input.
   */
  validate(t: Step, values: Record<string, unknown>): FieldError[] {
    let validator = this.validators.get(t.key);
    if (!validator) {
      const properties = Object.fromEntries(t.inputs.map((f) => [f.name, stripForStep(f.schema)]));
      validator = this.ajv.compile({ type: 'object', additionalProperties: false, properties, required: t.required });
      this.validators.set(t.key, validator);
    }
    if (validator(values)) return [];
    const titleOf = (name: string) => t.inputs.find((f) => f.name === name.split('.')[0])?.title;
    return (validator.errors ?? []).map((e) => {
      const error = translateAjvError(e, titleOf);
      const formatMessage = e.keyword === 'format' ? ownValue(FORMAT_MESSAGES, e.params.format) : undefined;
      if (formatMessage) return { field: error.field, message: formatMessage };
      return error;
    });
  }
}

/** A field schema as a step validates it: read-only fields are exactly what steps fill in. */
function stripForStep(schema: FieldSchema): object {
  const { readOnly: _readOnly, default: _default, ...rest } = schema;
  return rest;
}
