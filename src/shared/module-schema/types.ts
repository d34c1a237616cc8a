/** Hand-written view of a module schema (the meta-schema in schemas/meta/module.schema.json is the authority). */
import type { ReminderDeclaration } from './reminders.js';
import type { WorkflowSchema } from './workflow.js';

export type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'array';

/** A column of a table-of-rows field (FieldSchema.items.properties): a scalar value. */
export interface RowFieldSchema {
  type: 'string' | 'integer' | 'number' | 'boolean';
  title: string;
  description?: string;
  format?: 'date' | 'mobile' | 'email' | 'money' | 'id-card';
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
}

export interface FieldSchema {
  type: FieldType;
  title: string;
  description?: string;
  format?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  default?: unknown;
  readOnly?: boolean;
  /** Items of a multi-value field; `type: 'object'` with `properties` makes a table of rows (one row per item). */
  items?: { type?: 'string' | 'integer' | 'object'; enum?: unknown[]; properties?: Record<string, RowFieldSchema>; required?: string[]; additionalProperties?: false };
  /** Bounds of a multi-value field or a table of rows. */
  minItems?: number;
  maxItems?: number;
  'x-dict'?: string;
  'x-ref'?: string;
  'x-computed'?: { fn: string; args: string[] };
  'x-widget'?: string;
  'x-placeholder'?: string;
  'x-show-if'?: { field: string; in?: unknown[] };
  'x-hidden'?: boolean;
  'x-required-from'?: 'create' | 'update';
  /** Titles of the enum values (same order), shown instead of the values. */
  'x-enum-titles'?: string[];
  /** Chosen from a runtime list: `modules` = a module id of the deployment, shown by its title. */
  'x-choices'?: 'modules';
  /**
   * Who may be chosen for a reference field, judged by the server's registered `name` from the form's `on`
   * values: pickers grey out the others with the reason, and 全选 leaves them out (an election's candidates).
   */
  'x-ref-eligible'?: { name: string; on: string[] };
}

export type ListColumn = string | { field: string; width?: number; fixed?: 'left' | 'right'; ellipsis?: boolean };
export type FilterOp = 'eq' | 'like' | 'in' | 'range' | 'org-subtree';

/**
 * A child module shown on the parent's detail (x-children). With `grid`, who may edit the parent enters the
 * children's `fields` in one grid (one row per child, saved together: `PUT /api/m/{child}/batch`), with a totals
 * row and, with `sum`, a per-row total the parent's field `max` bounds (docs/schema.md, x-children).
 */
export interface ChildLink {
  module: string;
  foreignKey: string;
  title?: string;
  onDelete?: 'cascade' | 'restrict';
  grid?: { fields: string[]; sum?: { title: string; fields: string[]; max?: string } };
}

/**
 * A piece of work given to many organisations (x-progress): records grouped by the fields they share, each group
 * counted done (`done` states), failed (`failed` states), late (neither, past the date field `due`) and open.
 */
/** One group of `x-progress` (`POST /api/m/{id}/progress`): the records sharing `groupBy` values, counted by state. */
export interface ProgressGroup {
  /** The shared values (and `<field>Name` of references), by field name. */
  key: Record<string, unknown>;
  total: number;
  done: number;
  failed: number;
  late: number;
  open: number;
}

export interface ProgressSpec {
  title?: string;
  groupBy: string[];
  due: string;
  done: number[];
  failed?: number[];
}

export interface ModuleSchema {
  $schema: string;
  'x-id': string;
  title: string;
  description?: string;
  type: 'object';
  properties: Record<string, FieldSchema>;
  required?: string[];
  additionalProperties?: false;
  'x-list'?: { columns?: ListColumn[]; filters?: { field: string; op: FilterOp; title?: string }[]; sort?: string };
  /** `spread`: a reference field a new record's form takes as several values, one record created per value. */
  'x-form'?: { layout?: 'single' | 'groups' | 'tabs'; order?: string[]; groups?: { title: string; fields: string[] }[]; columns?: 1 | 2 | 3; spread?: string };
  'x-children'?: ChildLink[];
  'x-progress'?: ProgressSpec;
  'x-permissions'?: Partial<Record<ModuleAction, string>>;
  'x-trail'?: boolean | { module?: number };
  'x-unique'?: string[][];
  'x-hooks'?: { beforeWrite?: string[]; afterWrite?: string[]; beforeDelete?: string[]; afterRestore?: string[] };
  /**
   * Values the form takes from the server as the user types (a meeting's attendance from its organisation and
   * type): when every `on` field has a value, the form asks the registered fill `name` and sets the `sets` fields
   * it answers, unless the user changed them since. Server rules still decide on save.
   */
  'x-fill'?: { name: string; on: string[]; sets: string[] }[];
  'x-scope'?: string;
  /**
   * The records are organisations themselves (the org module): one is in the caller's scope when its id is,
   * a new one when its parent is. `public` fields are shown to every caller on every record (the tree and
   * pickers need them); the others only on records within the scope.
   */
  'x-scope-self'?: { parentField: string; public: string[] };
  /** Records owned by a user: callers without `all` see and write only their own (docs/schema.md, x-owner). */
  'x-owner'?: { field: string; all: string };
  'x-name-field'?: string;
  /** The records' table when a migration made it under another name than `m_<id>` (docs/schema.md). */
  'x-table'?: string;
  /** The menu path of the hand-written page showing this module's records (docs/schema.md, x-page). */
  'x-page'?: string;
  'x-workflow'?: WorkflowSchema;
  /** Dates on the records that call for attention (docs/schema.md, x-reminders). */
  'x-reminders'?: ReminderDeclaration[];
  /** Rule parameters of a module without a workflow (same entries as `x-workflow.params`; src/shared/module-schema/params.ts). */
  'x-params'?: Record<string, unknown>;
  /** Pages about one record, offered on its detail (`{id}` in `path` is the record's id): a printable letter. */
  /** Pages about one record on its detail; with `download`, an API file downloaded under that name ({name}: the record's). */
  'x-links'?: { title: string; path: string; download?: string; 'x-show-if'?: { field: string; in?: unknown[] } }[];
  /**
   * Records of other modules about this one, a tab each on its detail (docs/schema.md, x-related): the
   * module's records whose `foreignKey` equals this record's id (or its field `key`). Unlike x-children the
   * module keeps its own page and permissions; `permission` (its list permission) is filled in when served.
   */
  'x-related'?: RelatedLink[];
}

/** One entry of x-related. */
export interface RelatedLink {
  module: string;
  foreignKey: string;
  /** The field of this record whose value the foreign key holds (a reference to the same module); default the record's id. */
  key?: string;
  title?: string;
  /** Served only: the related module's list permission (the tab shows to those who hold it). */
  permission?: string;
}

/** The actions of a module, each guarded by a permission (x-permissions, default `<id>:<action>`). */
export const MODULE_ACTIONS = ['list', 'view', 'add', 'edit', 'delete', 'export', 'import'] as const;
export type ModuleAction = (typeof MODULE_ACTIONS)[number];
