/** Chinese messages of schema validation errors: one wording for the server's answers and the web forms. */

export interface FieldError {
  field: string;
  message: string;
}

export interface AjvLikeError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

/** Chinese text of one ajv error, with the field's title from the schema when there is one. */
export function translateAjvError(e: AjvLikeError, titleOf: (field: string) => string | undefined): FieldError {
  const path = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const field = e.keyword === 'required' ? [path, String(e.params.missingProperty)].filter(Boolean).join('.')
    : e.keyword === 'additionalProperties' ? [path, String(e.params.additionalProperty)].filter(Boolean).join('.')
    : path;
  const label = titleOf(field) ?? field;
  const p = e.params;
  const text: Record<string, string> = {
    required: `${label}不能为空`,
    type: `${label}的类型不正确`,
    format: `${label}的格式不正确`,
    pattern: `${label}的格式不正确`,
    enum: `${label}的取值不在允许范围内`,
    const: `${label}的取值不正确`,
    minLength: p.limit === 1 ? `${label}不能为空` : `${label}至少需要${p.limit}个字符`,
    maxLength: `${label}不能超过${p.limit}个字符`,
    minimum: `${label}不能小于${p.limit}`,
    maximum: `${label}不能大于${p.limit}`,
    minItems: `${label}至少需要${p.limit}项`,
    maxItems: `${label}不能超过${p.limit}项`,
    additionalProperties: `不允许的字段：${field}`,
  };
  return { field, message: text[e.keyword] ?? `${label}不正确` };
}
