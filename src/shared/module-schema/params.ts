/**
 * Rule parameters (issue 42): numbers and settings a regulation sets, declared by the module that reads
 * them in `x-workflow.params` (workflow modules) or `x-params` (modules without a workflow). A bare value
 * is a parameter with that default only (title = its name); a declaration is an object with `default`:
 * `{ title, type, unit, min, max, default, article, editable }`. The runtime collects every module's into
 * one registry keyed `<module>.<name>` (src/server/runtime/params/).
 */
import type { ModuleSchema } from './types.js';
import { ownValue } from '../own.js';

export type ParamType = 'integer' | 'number' | 'boolean' | 'string' | 'json';
/** `true`: a school may change it; `false`: fixed by the regulation; `'raise'`: may be raised, never below its default. */
export type ParamEditable = boolean | 'raise';

export interface ParamDeclaration {
  title?: string;
  type?: ParamType;
  unit?: string;
  min?: number;
  max?: number;
  default: unknown;
  /** The regulation (and article) that sets it. */
  article?: string;
  editable?: ParamEditable;
  description?: string;
}

/** A parameter as the registry knows it: every field filled. */
export interface RuleParamInfo {
  key: string;
  module: string;
  name: string;
  title: string;
  type: ParamType;
  unit: string;
  min: number | null;
  max: number | null;
  default: unknown;
  article: string;
  editable: ParamEditable;
  description: string;
  /** False for a bare value nobody declared yet. */
  declared: boolean;
}

export const isDeclaration = (v: unknown): v is ParamDeclaration => !!v && typeof v === 'object' && !Array.isArray(v) && Object.prototype.hasOwnProperty.call(v, 'default');

function typeOf(v: unknown): ParamType {
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (typeof v === 'string') return 'string';
  return 'json';
}

/** The raw parameter entries of a schema: `x-workflow.params` and `x-params` (one name may not be in both). */
export function paramEntries(schema: ModuleSchema): [string, unknown][] {
  return [...Object.entries(schema['x-workflow']?.params ?? {}), ...Object.entries(schema['x-params'] ?? {})];
}

/** The value a raw entry gives (a declaration's default, or the bare value). */
export const entryValue = (raw: unknown): unknown => (isDeclaration(raw) ? raw.default : raw);

export function paramInfo(module: string, name: string, raw: unknown): RuleParamInfo {
  const d: ParamDeclaration = isDeclaration(raw) ? raw : { default: raw };
  return {
    key: `${module}.${name}`,
    module,
    name,
    title: d.title ?? name,
    type: d.type ?? typeOf(d.default),
    unit: d.unit ?? '',
    min: d.min ?? null,
    max: d.max ?? null,
    default: d.default,
    article: d.article ?? '',
    // A bare value stays as it was: a school's override may change it.
    editable: d.editable ?? true,
    description: d.description ?? '',
    declared: isDeclaration(raw),
  };
}

/** The allowed range in words: 「5至30个工作日」「不少于5个工作日」. */
export function rangeText(p: RuleParamInfo): string {
  const unit = p.unit;
  const min = p.editable === 'raise' ? Math.max(Number(p.default), p.min ?? -Infinity) : p.min;
  if (min !== null && p.max !== null) return `${min}至${p.max}${unit}`;
  if (min !== null) return `不少于${min}${unit}`;
  if (p.max !== null) return `不超过${p.max}${unit}`;
  return '';
}

/** Why `value` may not be this parameter's value (Chinese, naming the range), or undefined when it may. */
export function paramValueProblem(p: RuleParamInfo, value: unknown): string | undefined {
  const name = `规则参数“${p.title}”`;
  if (value === undefined || value === null || value === '') return `${name}的值不能为空`;
  switch (p.type) {
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) return `${name}须为整数${rangeText(p) ? `（${rangeText(p)}）` : ''}`;
      break;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return `${name}须为数值${rangeText(p) ? `（${rangeText(p)}）` : ''}`;
      break;
    case 'boolean':
      if (typeof value !== 'boolean') return `${name}须为“是”或“否”`;
      return undefined;
    case 'string':
      if (typeof value !== 'string') return `${name}须为文字`;
      return undefined;
    default:
      return undefined;
  }
  const n = value as number;
  if (p.editable === 'raise' && typeof p.default === 'number' && n < p.default) return `${name}只能提高、不能低于${p.default}${p.unit}（${rangeText(p)}${p.article ? `，${p.article}` : ''}）`;
  const out = (p.min !== null && n < p.min) || (p.max !== null && n > p.max);
  if (!out) return undefined;
  if (p.min !== null && p.max !== null) return `${name}须在${p.min}至${p.max}${p.unit}之间`;
  return p.min !== null ? `${name}不能少于${p.min}${p.unit}` : `${name}不能超过${p.max}${p.unit}`;
  return undefined;
}

/** Whether two values are the same parameter value (JSON equality). */
export const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * What a school's override does wrong to the parameters the base schema declares: a value out of range
 * or of the wrong type, a change of a parameter no school may change, a raise-only value lowered, or a
 * declaration's range or rule changed (only the value is a school's). One line each.
 */
export function overrideParamProblems(base: ModuleSchema, merged: ModuleSchema): string[] {
  const problems: string[] = [];
  const id = base['x-id'];
  const mergedEntries = new Map(paramEntries(merged));
  for (const [name, raw] of paramEntries(base)) {
    if (!isDeclaration(raw)) continue;
    if (!mergedEntries.has(name)) {
      problems.push(`parameter ${id}.${name} is declared by the module; an override may change its value, not remove it`);
      continue;
    }
    const after = mergedEntries.get(name);
    if (isDeclaration(after)) {
      for (const k of ['type', 'min', 'max', 'editable', 'unit'] as const) {
        if (!sameValue(ownValue(raw as unknown as Record<string, unknown>, k), ownValue(after as unknown as Record<string, unknown>, k))) problems.push(`parameter ${id}.${name}: an override may change its value only, not its ${k}`);
      }
    }
    const info = paramInfo(id, name, raw);
    const value = entryValue(after);
    if (sameValue(value, info.default)) continue;
    if (info.editable === false) {
      problems.push(`parameter ${id}.${name} (${info.title}) is set by ${info.article || 'the regulation'} and may not be changed by a school`);
      continue;
    }
    const problem = paramValueProblem(info, value);
    if (problem) problems.push(`parameter ${id}.${name}: ${JSON.stringify(value)} is not allowed (${problem})`);
  }
  return problems;
}

/** Names declared twice (in both `x-workflow.params` and `x-params`). */
export function duplicateParamNames(schema: ModuleSchema): string[] {
  const seen = new Set<string>();
  const twice: string[] = [];
  for (const [name] of paramEntries(schema)) {
    if (seen.has(name)) twice.push(name);
    seen.add(name);
  }
  return twice;
}
