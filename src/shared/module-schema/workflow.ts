/**
 * `x-workflow`: a module whose records move between states through approvals by levels of the party
 * organisation (see docs/schema.md, "x-workflow"). These are the declarations and the readings of them
 * that the server and the web renderer share; the server's engine lives in src/server/runtime/workflow.
 */
import type { FieldSchema, ModuleSchema } from './types.js';

/**
 * Who acts at a step: the applicant, the record's own organisation whatever its type (`own`: the
 * organisation holding an election takes its own steps, not the committee above it), the branch, the
 * committee above it, the organisation department, or the other party of a two-sided process (any level
 * of it, or precisely its branch or its committee: a transfer's receiving branch and receiving
 * committee); the organisation above the record's (`above`:
 * its parent committee, the organisation department at the top); the managing department of the
 * record's unit (`unitDept`). The server resolves each through a named resolver (runtime/workflow/levels.ts).
 */
export const WORKFLOW_LEVELS = ['self', 'own', 'branch', 'committee', 'orgdept', 'other', 'otherBranch', 'otherCommittee', 'above', 'unitDept'] as const;
export type WorkflowLevel = (typeof WORKFLOW_LEVELS)[number];

export const LEVEL_TITLES: Readonly<Record<WorkflowLevel, string>> = {
  self: '本人',
  own: '本级党组织',
  branch: '党支部',
  committee: '二级党委（党总支）',
  orgdept: '党委组织部',
  other: '对方党组织',
  otherBranch: '对方党支部',
  otherCommittee: '对方二级党委（党总支）',
  above: '上级党组织',
  unitDept: '主管部门',
};

/** The record field each level reads: its organisation (`x-workflow.orgField`), the other side's, its unit, or its self user. */
export const LEVEL_READS: Readonly<Record<WorkflowLevel, 'org' | 'other' | 'unit' | 'self'>> = {
  self: 'self',
  own: 'org',
  branch: 'org',
  committee: 'org',
  orgdept: 'org',
  above: 'org',
  other: 'other',
  otherBranch: 'other',
  otherCommittee: 'other',
  unitDept: 'unit',
};

/** The levels acting for the organisation in `otherField` rather than the record's own. */
export const OTHER_SIDE_LEVELS: readonly WorkflowLevel[] = ['other', 'otherBranch', 'otherCommittee'];

/** What a step does to the application: approves it on, sends it back, refuses it, or the applicant takes it back. */
export const WORKFLOW_RESULTS = ['pass', 'return', 'reject', 'withdraw'] as const;
export type WorkflowResult = (typeof WORKFLOW_RESULTS)[number];

export const RESULT_TITLES: Readonly<Record<WorkflowResult, string>> = { pass: '通过', return: '退回', reject: '不通过', withdraw: '撤回' };

export interface WorkflowState {
  title: string;
  /** Nothing follows: done, archived, rejected or withdrawn. */
  final?: boolean;
  /** A stage the state belongs to (lists and charts group by it). */
  group?: string;
}

export interface WorkflowTodo {
  /** The transition whose actors get the to-do (open from the state the record moves to). */
  step: string;
  /** `{name}` is the record's name, `{module}` the module's title, `{step}` the step's title. */
  title?: string;
}

export interface WorkflowTransition {
  /**
   * The step's id in the API, the log and permissions; default the transition's key. Several transitions
   * may share one id when they start from different states: the same step taken at successive levels
   * (`approve` by the sending committee, then by the receiving one), each with its own level, target
   * state and fields. A school override drops one level by deleting its transition (`null`).
   */
  id?: string;
  title: string;
  description?: string;
  /** States the step may start from. */
  from: number[];
  /**
   * The state the record moves to; `"previous"`: back to the state it came from (a return); absent: the
   * step records something and the state stays (a filing, an assessment).
   */
  to?: number | 'previous';
  /** Who acts; `"next"`: whoever may take the state-changing steps open from the record's state (for return and reject). */
  level: WorkflowLevel | WorkflowLevel[] | 'next';
  /** Default `<module>:<transition id in kebab-case>` (`development:activist-file`), the form menu buttons take. */
  permission?: string;
  /** Default `pass`. */
  result?: WorkflowResult;
  /** Module fields the actor fills in at this step (written to the record, also when read-only elsewhere). */
  fields?: string[];
  /** Fields of this step only: kept in the approval log, not on the record. */
  stepFields?: Record<string, FieldSchema>;
  /** Fields (of `fields` or `stepFields`) that must be filled in. */
  required?: string[];
  /** Default `optional`; return and reject should ask for one. */
  comment?: 'required' | 'optional' | 'none';
  /** Domain hooks that may refuse the step (with the rule's words) or add warnings. */
  guards?: string[];
  /** In a school override: guards of the base schema the override drops on purpose (else `schemas:check` warns). */
  droppedGuards?: string[];
  /** Domain hooks run in the step's transaction after the state changed (other modules, derived values). */
  effects?: string[];
  /**
   * A date field of the record from which the step is due (a probation's end; its guards refuse it
   * earlier): until then the record waits on the date, listed under 待到期 rather than 待我审批.
   */
  notBefore?: string;
  /**
   * A step taken for an organisation the actor names in this field (a step field or module field that
   * refers to `org`) instead of the record's: its levels read that organisation, and only the level of
   * that organisation itself counts (a 党支部 at `branch`, a 党委/党总支 at `committee`, the top at
   * `orgdept`). One record, a step per organisation: each branch's and committee's report of a fee batch.
   */
  forOrg?: string;
  /** For a step without `to`: done once this field has a value; until then it waits for its actors. */
  doneField?: string;
  /**
   * A record some may make but nobody has to (an exception noted by the organisation department): it is
   * offered to its actors, but never puts the record on their 待我审批 list nor sends them a to-do.
   */
  optional?: boolean;
  /** To-dos for the actors of the next steps; default: every step then waiting on the record (none after a step without `to`). */
  todos?: WorkflowTodo[];
}

export interface WorkflowSchema {
  /** An integer field, read-only: only transitions change it. */
  stateField: string;
  /** The state of a new record. */
  initial: number;
  /** Keyed by the state code (0 applied, positive = levels passed, negative = returned, withdrawn, rejected). */
  states: Record<string, WorkflowState>;
  /** Keyed by the transition id. */
  transitions: Record<string, WorkflowTransition>;
  /** A user field: the user who acts as `self`. */
  selfField?: string;
  /** An organisation field: the organisation that acts as `other` (a transfer's receiving side). */
  otherField?: string;
  /** The record's organisation the levels read (default: the x-scope field when it refers to `org`). */
  orgField?: string;
  /** The record's unit `unitDept` reads (default: the x-scope field when it refers to `unit`). */
  unitField?: string;
  /**
   * States in which the generic PUT/DELETE may change a record (default: the initial state and the states
   * a return leads to); in any other state only its steps change it (409).
   */
  editableIn?: number[];
  /**
   * Keep both of two consecutive steps the same organisation acts at (default: the second is taken with
   * the first and logged as such, e.g. 转入党委审批 after 转出党委审批 by one committee).
   */
  repeatSameActor?: boolean;
  /** Settings the guards read (a school override may change them). */
  params?: Record<string, unknown>;
  /** Domain hooks run after every step, after the step's own effects. */
  effects?: string[];
  /** The web page of a record (to-do links): `{id}` is the record id. Default: the menu page of `module:<id>` with `?id={id}`. */
  link?: string;
}

/** A transition with its id and its defaults applied. */
export interface TransitionInfo extends WorkflowTransition {
  id: string;
  /** The transition's key in `transitions` (unique; the id may be shared). */
  key: string;
  permission: string;
  result: WorkflowResult;
  fields: string[];
  stepFields: Record<string, FieldSchema>;
  required: string[];
  comment: 'required' | 'optional' | 'none';
  guards: string[];
  effects: string[];
}

/** `activistFile` → `activist-file`. */
export const kebabCase = (id: string) => id.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

export function transitionInfo(moduleId: string, key: string, t: WorkflowTransition): TransitionInfo {
  const id = t.id ?? key;
  return {
    ...t,
    id,
    key,
    permission: t.permission ?? `${moduleId}:${kebabCase(id)}`,
    result: t.result ?? 'pass',
    fields: t.fields ?? [],
    stepFields: t.stepFields ?? {},
    required: t.required ?? [],
    comment: t.comment ?? 'optional',
    guards: t.guards ?? [],
    effects: t.effects ?? [],
  };
}

/** The transitions of a workflow in declaration order, defaults applied. */
export function transitionsOf(moduleId: string, wf: WorkflowSchema): TransitionInfo[] {
  return Object.entries(wf.transitions).map(([key, t]) => transitionInfo(moduleId, key, t));
}

/**
 * The key of the transition a step id means for a record in `state`: the transition of that key, or
 * among those sharing the id the one open from the state (else the first of them).
 */
export function transitionKey(wf: WorkflowSchema, id: string, state?: number | null): string | undefined {
  const named = Object.entries(wf.transitions).filter(([key, t]) => (t.id ?? key) === id);
  const open = state === undefined || state === null ? undefined : named.find(([, t]) => t.from.includes(state));
  return (open ?? named.find(([key]) => key === id) ?? named[0])?.[0];
}

/** State codes in display order: the progression (0, 1, 2, ...) first, then the negative ones. */
export function stateCodes(wf: WorkflowSchema): number[] {
  const codes = Object.keys(wf.states).map(Number);
  return [...codes.filter((c) => c >= 0).sort((a, b) => a - b), ...codes.filter((c) => c < 0).sort((a, b) => b - a)];
}

export function stateTitle(wf: WorkflowSchema, code: unknown): string {
  return (code !== null && code !== undefined && wf.states[String(code)]?.title) || (code === null || code === undefined ? '' : String(code));
}

/** How a state is shown: in progress, done, sent back (draft or returned) or ended without success. */
export function stateTone(wf: WorkflowSchema, code: unknown): 'processing' | 'success' | 'warning' | 'error' | 'default' {
  const state = wf.states[String(code)];
  if (!state) return 'default';
  const n = Number(code);
  if (n < 0) return state.final ? 'error' : 'warning';
  return state.final ? 'success' : 'processing';
}

/** A step that moves the record on, or an open filing: what makes a record wait for someone. */
export function isWaitingStep(t: Pick<WorkflowTransition, 'to' | 'doneField' | 'result' | 'optional'>): boolean {
  return !t.optional && (t.result ?? 'pass') === 'pass' && (t.to !== undefined || !!t.doneField);
}

/** The levels a transition names (`next` is resolved by the engine against the record's state). */
export function declaredLevels(t: Pick<WorkflowTransition, 'level'>): WorkflowLevel[] | 'next' {
  return t.level === 'next' ? 'next' : Array.isArray(t.level) ? t.level : [t.level];
}

/** The levels that take the state-changing steps open from a state: who `next` means there. */
export function nextLevels(moduleId: string, wf: WorkflowSchema, state: number): WorkflowLevel[] {
  const levels = new Set<WorkflowLevel>();
  for (const t of transitionsOf(moduleId, wf)) {
    if (t.result !== 'pass' || t.to === undefined || !t.from.includes(state)) continue;
    const declared = declaredLevels(t);
    if (declared !== 'next') declared.forEach((l) => levels.add(l));
  }
  return [...levels];
}

/** Every field a step takes: its module fields, then its own. */
export function stepFieldNames(t: TransitionInfo): string[] {
  return [...t.fields, ...Object.keys(t.stepFields)];
}

/** Fields of a workflow module that the engine adds to its answers. */
export const WORKFLOW_RESERVED_FIELDS = ['warnings', 'visible'];

/**
 * The form of a step as a small module schema of its own: the fields it takes (read-only ones made
 * writable: filling them in is what the step is for) and the fields it requires. The web dialog and
 * the build's precompiled validators use the same schema, so they agree on its hash.
 */
export function stepSchema(module: ModuleSchema, transitionId: string, state?: number | null): ModuleSchema {
  const wf = module['x-workflow']!;
  const key = transitionKey(wf, transitionId, state) ?? transitionId;
  const t = transitionInfo(module['x-id'], key, wf.transitions[key]);
  const properties: Record<string, FieldSchema> = {};
  for (const name of t.fields) {
    const f = module.properties[name];
    if (!f) continue;
    const { readOnly: _readOnly, 'x-show-if': _showIf, default: _default, ...rest } = f;
    properties[name] = rest;
  }
  Object.assign(properties, t.stepFields);
  const names = Object.keys(properties);
  // The record's organisation and the fills of the step's fields: a step's form reads them from the record.
  const fills = (module['x-fill'] ?? []).map((f) => ({ ...f, sets: f.sets.filter((n) => n in properties) })).filter((f) => f.sets.length);
  return {
    $schema: module.$schema,
    'x-id': module['x-id'],
    ...(module['x-scope'] && { 'x-scope': module['x-scope'] }),
    ...(fills.length && { 'x-fill': fills }),
    title: t.title,
    type: 'object',
    properties,
    required: t.required.filter((n) => properties[n]),
    additionalProperties: false,
    'x-form': { layout: 'single', order: names, columns: names.length > 6 ? 2 : 1 },
  };
}

/**
 * The create/edit form of a workflow module: the record without what its steps fill in (the state, the
 * read-only fields steps set, and the fields of every step after the first), which are entered through
 * the steps' dialogs. Other modules: the schema itself.
 */
/**
 * The form of new records of a module with `x-form.spread`: the spread reference field takes several values
 * (one record is created per value, `POST /api/m/{id}/many`); without it, the module as it is.
 */
export function spreadFormSchema(module: ModuleSchema): ModuleSchema {
  const name = module['x-form']?.spread;
  const field = name ? module.properties[name] : undefined;
  if (!name || !field) return module;
  const { type: _type, minimum: _min, maximum: _max, ...rest } = field;
  const many: FieldSchema = { ...rest, type: 'array', items: { type: 'integer' }, maxItems: SPREAD_MAX, description: field.description ?? `可选择多个，每个${field.title}新增一条记录` };
  return { ...module, properties: { ...module.properties, [name]: many } };
}

/** Records one spread form may create at once. */
export const SPREAD_MAX = 500;

export function recordFormSchema(module: ModuleSchema): ModuleSchema {
  const wf = module['x-workflow'];
  if (!wf) return module;
  // The first step's fields (a step from the initial state) are asked with the record; later steps ask
  // for their own in their dialogs. A field the record requires stays, and so does a read-only one's hiding.
  const first = new Set(Object.values(wf.transitions).filter((t) => t && Array.isArray(t.from) && t.from.includes(wf.initial)).flatMap((t) => t.fields ?? []));
  const later = new Set([wf.stateField, ...Object.values(wf.transitions).flatMap((t) => t?.fields ?? [])]);
  const required = new Set(module.required ?? []);
  const keep = (name: string) => {
    if (!later.has(name)) return true;
    if (module.properties[name]?.readOnly) return false;
    return first.has(name) || required.has(name);
  };
  const properties = Object.fromEntries(Object.entries(module.properties).filter(([name]) => keep(name)));
  const form = module['x-form'];
  return {
    ...module,
    properties,
    required: (module.required ?? []).filter(keep),
    ...(form && {
      'x-form': {
        ...form,
        ...(form.order && { order: form.order.filter(keep) }),
        ...(form.groups && { groups: form.groups.map((g) => ({ ...g, fields: g.fields.filter(keep) })).filter((g) => g.fields.length) }),
      },
    }),
  };
}

/**
 * The states in which the generic edit and delete may change a record: `editableIn`, by default the
 * initial state and the states a return leads to (concrete, not final). The server's edit lock and the
 * renderer's 编辑/删除 buttons read the same answer.
 */
export function editableStates(wf: WorkflowSchema): Set<number> {
  if (wf.editableIn) return new Set(wf.editableIn);
  const states = new Set([wf.initial]);
  for (const t of Object.values(wf.transitions)) {
    if (t && t.result === 'return' && typeof t.to === 'number' && !wf.states[String(t.to)]?.final) states.add(t.to);
  }
  return states;
}

/** Why a record cannot be edited or deleted through the generic form (undefined: it can). */
export function editLockReason(wf: WorkflowSchema, state: unknown, verb: '修改' | '删除'): string | undefined {
  if (typeof state !== 'number' || editableStates(wf).has(state)) return undefined;
  const title = wf.states[String(state)]?.title ?? String(state);
  return wf.states[String(state)]?.final ? `已办结（${title}），不能${verb}` : `已提交（${title}），只能通过办理步骤变更，不能${verb}`;
}
