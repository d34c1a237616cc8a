/**
 * A fill-in form is a module stored at run time (runtime/stored-modules.ts) whose id starts with `form-`.
 * The designer supplies the fields; what makes it a form is added here, the same for every form:
 * the filling organisation (x-scope: each organisation fills and sees its own record, one record each),
 * the permissions of 填报管理, the trail, and the write guard of the collection (hooks.ts).
 */
import type { ModuleSchema } from '../../../shared/module-schema/types.js';
import { isRowTable } from '../../../shared/module-schema/fields.js';
import { HttpError } from '../../errors.js';
import { undesignedKeys } from '../../runtime/stored-modules.js';

export const FORM_ID_PREFIX = 'form-';
/** The field every form adds: the organisation whose answer the record is. */
export const FORM_ORG_FIELD = 'orgId';

/** 填报管理's permissions (menu stat-fill-in): see the forms, fill for one's organisation, collect. */
export const FORM_PERMISSIONS = {
  list: 'stat-fill-in:list',
  fill: 'stat-fill-in:fill',
  manage: 'stat-fill-in:manage',
} as const;

/** The module's own actions: the generic API is the collector's (organisations fill through /api/forms). */
const MODULE_PERMISSIONS = {
  list: FORM_PERMISSIONS.list,
  view: FORM_PERMISSIONS.list,
  add: FORM_PERMISSIONS.manage,
  edit: FORM_PERMISSIONS.manage,
  delete: FORM_PERMISSIONS.manage,
  export: FORM_PERMISSIONS.manage,
  import: FORM_PERMISSIONS.manage,
};

export const FORM_GUARD_HOOK = 'forms.guardWrite';
/** The expected-record source of every form: its organisations that have not submitted (service.ts). */
export const FORM_LATE_SOURCE = 'forms.late';

/**
 * Late organisations are reminded (x-reminders from an expected-record source, docs/schema.md): from a week
 * before the deadline and while overdue, each organisation that has not submitted, to those who fill for it.
 */
const LATE_REMINDER = {
  type: 'late', title: '填报即将截止',
  date: { expected: FORM_LATE_SOURCE }, ahead: 7,
  receivers: [{ level: 'branch', permission: FORM_PERMISSIONS.fill }],
  message: { title: '请填报：{name}', content: '“{name}”的填报截止日期为{dueDateCn}，{orgName}尚未提交，请及时填报。' },
};

export function isFormId(id: unknown): id is string {
  return typeof id === 'string' && id.startsWith(FORM_ID_PREFIX) && /^form(-[a-z0-9]+)+$/.test(id);
}

/**
 * The stored schema of a designed form: the designer's fields with the envelope filled in where absent
 * ($schema, type, title, x-id) and the form's own keywords set. The result is checked by the runtime as
 * any module schema is (POST /api/forms answers its problems with 400).
 */
export function formModuleSchema(designed: unknown, id: string, title: string): ModuleSchema {
  if (!designed || typeof designed !== 'object' || Array.isArray(designed)) {
    throw new HttpError(400, '表单定义不正确：schema 必须是一个对象', { errors: [{ field: 'schema', message: 'schema 必须是一个对象' }] });
  }
  const given = designed as Record<string, unknown>;
  // Only what the designer says: the form's own keywords are added below, anything else is refused (issue 38.1).
  const refused = undesignedKeys(given);
  if (refused.length) {
    throw new HttpError(400, `表单定义不能包含“${refused[0]}”：只能设计字段、必填、说明和列表、表单布局`, {
      errors: refused.map((key) => ({ field: `schema.${key}`, message: `不允许的关键字“${key}”` })),
    });
  }
  if (given['x-id'] !== undefined && given['x-id'] !== id) {
    throw new HttpError(400, `表单的标识必须以 ${FORM_ID_PREFIX} 开头`, { errors: [{ field: 'schema', message: `x-id "${String(given['x-id'])}" 不是 ${id}` }] });
  }
  const properties = given.properties && typeof given.properties === 'object' && !Array.isArray(given.properties) ? (given.properties as ModuleSchema['properties']) : undefined;
  const schema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    additionalProperties: false,
    title,
    ...given,
    'x-id': id,
  } as ModuleSchema;
  if (!properties) return schema; // the check names what is missing
  const fields = Object.keys(properties).filter((name) => name !== FORM_ORG_FIELD);
  const listed = fields.filter((name) => properties[name]?.type !== 'array' && !properties[name]?.['x-computed']).slice(0, 5);
  return {
    ...schema,
    properties: {
      [FORM_ORG_FIELD]: { type: 'integer', title: '填报组织', 'x-ref': 'org', 'x-widget': 'org-tree' },
      ...properties,
    },
    required: [...new Set([FORM_ORG_FIELD, ...(schema.required ?? [])])],
    'x-list': schema['x-list'] ?? { columns: [FORM_ORG_FIELD, ...listed] },
    'x-form': schema['x-form'] ?? { order: [FORM_ORG_FIELD, ...fields] },
    'x-scope': FORM_ORG_FIELD,
    'x-unique': [[FORM_ORG_FIELD]],
    'x-permissions': MODULE_PERMISSIONS,
    'x-trail': true,
    'x-hooks': { beforeWrite: [FORM_GUARD_HOOK], beforeDelete: [FORM_GUARD_HOOK] },
    'x-reminders': [LATE_REMINDER],
  };
}

/** The table-of-rows fields of a form, in form order: each takes a sheet of its own in the export. */
export function rowTables(schema: ModuleSchema): [string, NonNullable<ModuleSchema['properties'][string]>][] {
  return Object.entries(schema.properties).filter(([, f]) => isRowTable(f));
}
