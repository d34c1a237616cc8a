import type { ErrorObject, ValidateFunction } from 'ajv';
import { effectiveSchema, fieldKind, isStored, isWritable, listColumnFields, modulePermissions, nameFieldOf, type FieldKind } from '../../shared/module-schema/fields.js';
import type { Ajv } from '../../shared/module-schema/ajv.js';
import type { ChildLink as SchemaChildLink, FieldSchema, FilterOp, ModuleAction, ModuleSchema } from '../../shared/module-schema/types.js';
import { columnNameOf, tableNameOf } from './naming.js';
import { pinyinColumnOf } from './pinyin.js';
import { isSensitiveFormat } from './sensitive.js';
import { Workflow } from './workflow/model.js';
import { entryValue, paramEntries, paramInfo, sameValue, type RuleParamInfo } from '../../shared/module-schema/params.js';

/** One field as the runtime uses it: schema, storage and behaviour in one place. */
export interface FieldInfo {
  name: string;
  title: string;
  schema: FieldSchema;
  kind: FieldKind;
  /** null for computed fields (never stored). */
  column: string | null;
  /** Column kind as applied ('bigint' for integers beyond 32 bits); null when not stored. */
  storage: StorageKind | null;
  writable: boolean;
  dict?: string;
  ref?: string;
  /** Value → label of a field shown by label without a dictionary (a workflow's state field). */
  labels?: Map<string, string>;
}

export type StorageKind = FieldKind | 'bigint';

const SQL_TYPES: Record<StorageKind, string> = {
  string: 'text',
  date: 'date',
  'date-time': 'timestamptz',
  integer: 'integer',
  bigint: 'bigint',
  number: 'double precision',
  boolean: 'boolean',
  array: 'jsonb',
};

export function sqlTypeOf(kind: StorageKind): string {
  return SQL_TYPES[kind];
}

const INT32 = 2 ** 31;

function storageOf(field: FieldSchema): StorageKind | null {
  if (!isStored(field)) return null;
  const kind = fieldKind(field);
  if (kind === 'integer' && ((field.maximum ?? 0) >= INT32 || (field.minimum ?? 0) < -INT32)) return 'bigint';
  return kind;
}

export function fieldInfo(name: string, schema: FieldSchema): FieldInfo {
  const storage = storageOf(schema);
  return {
    name,
    title: schema.title,
    schema,
    kind: fieldKind(schema),
    column: storage ? columnNameOf(name) : null,
    storage,
    writable: isWritable(schema),
    ...(schema['x-dict'] && { dict: schema['x-dict'] }),
    ...(schema['x-ref'] && { ref: schema['x-ref'] }),
    ...(schema['x-enum-titles'] && { labels: enumTitles(schema) }),
  };
}

/** Value → title of an enum with `x-enum-titles` (checked to be of the same length). */
function enumTitles(schema: FieldSchema): Map<string, string> {
  const values = schema.enum ?? schema.items?.enum ?? [];
  return new Map(values.map((v, i) => [String(v), schema['x-enum-titles']![i]]));
}

/** The API names of the system columns every module table has. */
export const SYSTEM_FIELDS: Readonly<Record<string, string>> = {
  id: 'id',
  version: 'version',
  createdAt: 'created_at',
  createdBy: 'created_by',
  updatedAt: 'updated_at',
  updatedBy: 'updated_by',
};

export interface ParentLink {
  module: string;
  foreignKey: string;
  /** The parent enters this module's records as a grid (x-children `grid`): the batch update serves it. */
  grid?: boolean;
}

/** An x-children link with its default applied. */
export type ChildLink = SchemaChildLink & { onDelete: 'cascade' | 'restrict' };

/**
 * A module as the runtime serves it: the school-merged schema, its effective (visible) form, and
 * everything derived from it once at start (columns, filters, sort map, permissions, uniques).
 */
export class RuntimeModule {
  readonly id: string;
  readonly title: string;
  readonly table: string;
  /** The effective schema: what the API serves and validates against (hidden fields removed). */
  readonly schema: ModuleSchema;
  /** Visible fields, in schema order. */
  readonly fields = new Map<string, FieldInfo>();
  /** Every stored field including hidden ones: the table keeps their columns and data. */
  readonly storedFields: FieldInfo[];
  /** Permission per action; a child module's are its parent's (set by the registry, see governBy). */
  permissions: Record<ModuleAction, string>;
  /** The parent whose permissions govern this child module (x-children). */
  governedBy?: RuntimeModule;
  readonly listFields: string[];
  readonly filters = new Map<string, FilterOp>();
  /** API sort name → SQL column. */
  readonly sortable: Record<string, string>;
  readonly defaultOrder: [string, 'asc' | 'desc'][];
  readonly scopeField?: FieldInfo;
  /** x-scope-self: the records are organisations (scoped by their own id, new ones by their parent's). */
  readonly selfScope?: { parent: FieldInfo; public: ReadonlySet<string> };
  /** x-owner: the field holding the owning user's id, and the permission that sees every record of the scope. */
  readonly owner?: { field: FieldInfo; all: string };
  readonly nameField?: FieldInfo;
  /** The name field sorts in pinyin order through this stored key column (runtime/pinyin.ts). */
  readonly pinyinColumn?: string;
  readonly uniqueSets: FieldInfo[][];
  readonly trail: false | { moduleCode: number | null };
  readonly hooks: { beforeWrite: string[]; afterWrite: string[]; beforeDelete: string[]; afterRestore: string[] };
  readonly children: ChildLink[];
  /** Modules that list this one in their x-children (set by the registry). */
  readonly parents: ParentLink[] = [];
  /**
   * A child module without its own x-scope is scoped through its parent: a record is in scope when its
   * parent record is (set by the registry).
   */
  scopeVia?: { foreignKey: FieldInfo; parent: RuntimeModule };
  /** The module's x-workflow, when its records move through approvals (runtime/workflow). */
  readonly workflow?: Workflow;
  /**
   * Its rule parameters (x-workflow.params, x-params): declared by the base schema, with the value a
   * school's override file gives (`override`, absent when it gives the default). runtime/params/ collects them.
   */
  ruleParams: { info: RuleParamInfo; override?: { value: unknown } }[];
  private validator?: ValidateFunction;

  constructor(
    /** The schema after the school's overrides, hidden fields included. */
    readonly merged: ModuleSchema,
    private readonly ajv: Ajv,
  ) {
    this.id = merged['x-id'];
    this.title = merged.title;
    this.table = merged['x-table'] ?? tableNameOf(this.id);
    this.schema = effectiveSchema(merged);
    for (const [name, f] of Object.entries(this.schema.properties)) this.fields.set(name, fieldInfo(name, f));
    this.storedFields = Object.entries(merged.properties)
      .map(([name, f]) => this.fields.get(name) ?? fieldInfo(name, f))
      .filter((f) => f.column);
    this.permissions = modulePermissions(this.schema);
    this.listFields = listColumnFields(this.schema).filter((f) => this.fields.has(f));
    for (const f of this.schema['x-list']?.filters ?? []) this.filters.set(f.field, f.op);
    this.sortable = { id: 'id', createdAt: 'created_at', updatedAt: 'updated_at' };
    // A sensitive field is not sorted on: the order of masked values would tell them (issue 38.3).
    for (const f of this.fields.values()) if (f.column && f.kind !== 'array' && !isSensitiveFormat(f.schema.format)) this.sortable[f.name] = f.column;
    const [sortField, sortDir] = (this.schema['x-list']?.sort ?? '').split(',');
    this.defaultOrder = sortField && this.sortable[sortField] ? [[this.sortable[sortField], sortDir as 'asc' | 'desc'], ['id', 'desc']] : [['id', 'desc']];
    const scope = this.schema['x-scope'];
    if (scope) this.scopeField = this.fields.get(scope);
    const self = this.schema['x-scope-self'];
    if (self && this.fields.get(self.parentField)) this.selfScope = { parent: this.fields.get(self.parentField)!, public: new Set(self.public) };
    const owner = this.schema['x-owner'];
    if (owner && this.fields.get(owner.field)) this.owner = { field: this.fields.get(owner.field)!, all: owner.all };
    const nameField = nameFieldOf(this.schema);
    if (nameField) this.nameField = this.fields.get(nameField);
    if (this.nameField?.column && this.nameField.kind === 'string') {
      // Sorting by the name reads its pinyin key (阿 before 周), on both engines.
      this.pinyinColumn = pinyinColumnOf(this.nameField);
      this.sortable[this.nameField.name] = this.pinyinColumn;
      if (this.defaultOrder[0][0] === this.nameField.column) this.defaultOrder[0][0] = this.pinyinColumn;
    }
    this.uniqueSets = (this.schema['x-unique'] ?? []).map((set) => set.map((f) => this.fields.get(f)!));
    const trail = this.schema['x-trail'];
    this.trail = trail ? { moduleCode: typeof trail === 'object' ? (trail.module ?? null) : null } : false;
    const hooks = this.schema['x-hooks'] ?? {};
    this.hooks = { beforeWrite: hooks.beforeWrite ?? [], afterWrite: hooks.afterWrite ?? [], beforeDelete: hooks.beforeDelete ?? [], afterRestore: hooks.afterRestore ?? [] };
    this.children = (this.schema['x-children'] ?? []).map((c) => ({ ...c, onDelete: c.onDelete ?? 'cascade' }));
    this.ruleParams = paramEntries(merged).map(([name, raw]) => ({ info: paramInfo(this.id, name, raw) }));
    const workflow = this.schema['x-workflow'];
    if (workflow) {
      this.workflow = new Workflow(this.id, workflow, this.fields, fieldInfo, ajv);
      // The state shows by its title, and lists filter on it (in) whether or not x-list names it.
      this.workflow.stateField.labels = this.workflow.stateLabels();
      if (!this.filters.has(workflow.stateField)) this.filters.set(workflow.stateField, 'in');
    }
  }

  /**
   * Takes the permissions of the parent (docs/schema.md, x-children): view the parent → list and view
   * the children; edit the parent → add, edit and delete them; export and import as the parent's. The
   * served schema carries them, so the web shows the same buttons the server allows.
   */
  /** Reads the declarations from the base schema (before the school's override) and the override's values. */
  declareParams(base: ModuleSchema): void {
    const merged = new Map(paramEntries(this.merged));
    this.ruleParams = paramEntries(base).map(([name, raw]) => {
      const info = paramInfo(this.id, name, raw);
      const value = entryValue(merged.get(name));
      return merged.has(name) && !sameValue(value, info.default) ? { info, override: { value } } : { info };
    });
    // Parameters the override adds are its own (bare values).
    for (const [name, raw] of merged) if (!this.ruleParams.some((p) => p.info.name === name)) this.ruleParams.push({ info: paramInfo(this.id, name, raw) });
  }

  governBy(parent: RuntimeModule): void {
    const p = parent.permissions;
    this.permissions = { list: p.view, view: p.view, add: p.edit, edit: p.edit, delete: p.edit, export: p.export, import: p.import };
    this.schema['x-permissions'] = { ...this.permissions };
    this.governedBy = parent;
  }

  field(name: string): FieldInfo | undefined {
    return this.fields.get(name);
  }

  /** Visible stored fields. */
  get columns(): FieldInfo[] {
    return [...this.fields.values()].filter((f) => f.column);
  }

  /** Fields users type in (forms, imports). */
  get writableFields(): FieldInfo[] {
    return [...this.fields.values()].filter((f) => f.writable);
  }

  get computedFields(): FieldInfo[] {
    return [...this.fields.values()].filter((f) => f.schema['x-computed']);
  }

  /** The dictionary codes the visible fields use. */
  get dictCodes(): string[] {
    return [...new Set([...this.fields.values()].flatMap((f) => (f.dict ? [f.dict] : [])))];
  }

  /** Columns worth an index: filters, the default sort, the scope field, and foreign keys of parents. */
  get indexedColumns(): string[] {
    const names = [...this.filters.keys(), this.schema['x-list']?.sort?.split(',')[0], this.scopeField?.name, ...this.parents.map((p) => p.foreignKey)];
    const columns = names.flatMap((n) => {
      const f = n ? this.fields.get(n) : undefined;
      return f?.column && f.kind !== 'array' ? [f.column] : [];
    });
    if (this.pinyinColumn && this.defaultOrder[0][0] === this.pinyinColumn) columns.push(this.pinyinColumn);
    return [...new Set(columns)];
  }

  /** String columns searched by "contains": `like` filters and the name field (reference pickers). */
  get textSearchColumns(): string[] {
    const names = [...[...this.filters].filter(([, op]) => op === 'like').map(([n]) => n), this.nameField?.name];
    const columns = names.flatMap((n) => {
      const f = n ? this.fields.get(n) : undefined;
      return f?.column && f.kind === 'string' ? [f.column] : [];
    });
    return [...new Set(columns)];
  }

  /** Validates a record (system and read-only keys already removed) against the writable fields. */
  validate(record: Record<string, unknown>): ErrorObject[] {
    this.validator ??= this.ajv.compile(this.writeSchema());
    return this.validator(record) ? [] : (this.validator.errors ?? []);
  }

  private writeSchema(): object {
    const writable = this.writableFields;
    const names = new Set(writable.map((f) => f.name));
    return {
      type: 'object',
      additionalProperties: false,
      properties: Object.fromEntries(writable.map((f) => [f.name, f.schema])),
      required: (this.schema.required ?? []).filter((r) => names.has(r)),
    };
  }
}
