/**
 * What the meta-schema cannot say about `x-workflow`: states and fields a transition names must exist,
 * levels must be resolvable. Called by checkModuleSchema, so `npm run schemas:check` and the start of
 * the app refuse a workflow that points nowhere (one line per problem).
 */
import type { ModuleSchema } from './types.js';
import { LEVEL_READS, WORKFLOW_RESERVED_FIELDS, declaredLevels } from './workflow.js';

export function checkWorkflow(module: ModuleSchema): string[] {
  const wf = module['x-workflow'];
  if (!wf) return [];
  const problems: string[] = [];
  const fields = module.properties;
  const where = 'x-workflow';
  const state = fields[wf.stateField];
  if (!state) problems.push(`${where}.stateField names unknown field "${wf.stateField}"`);
  else if (state.type !== 'integer' || !state.readOnly || state['x-computed'] || state['x-hidden']) {
    problems.push(`${where}.stateField: "${wf.stateField}" must be a stored, visible, readOnly integer field (only transitions change it)`);
  }
  const codes = new Set(Object.keys(wf.states));
  for (const code of codes) if (!/^-?\d+$/.test(code)) problems.push(`${where}.states: "${code}" is not an integer state code`);
  if (!codes.has(String(wf.initial))) problems.push(`${where}.initial names undeclared state ${wf.initial}`);
  for (const code of wf.editableIn ?? []) if (!codes.has(String(code))) problems.push(`${where}.editableIn names undeclared state ${code}`);
  for (const reserved of WORKFLOW_RESERVED_FIELDS) if (fields[reserved]) problems.push(`field "${reserved}" is reserved in a workflow module (the engine answers it)`);

  const userField = (key: 'selfField' | 'otherField' | 'orgField' | 'unitField', ref: string) => {
    const name = wf[key];
    if (!name) return;
    const f = fields[name];
    if (!f) problems.push(`${where}.${key} names unknown field "${name}"`);
    else if (f.type !== 'integer' || f['x-ref'] !== ref) problems.push(`${where}.${key}: "${name}" must be an integer field with x-ref "${ref}"`);
  };
  userField('selfField', 'user');
  userField('otherField', 'org');
  userField('orgField', 'org');
  userField('unitField', 'unit');
  // The fields the levels read: the record's unit defaults to an x-scope field referring to units, its organisation to any other.
  const scopeRef = module['x-scope'] ? fields[module['x-scope']]?.['x-ref'] : undefined;
  const reads = {
    org: wf.orgField ?? (scopeRef !== 'unit' ? module['x-scope'] : undefined),
    unit: wf.unitField ?? (scopeRef === 'unit' ? module['x-scope'] : undefined),
    other: wf.otherField,
    self: wf.selfField,
  };
  const readsText = { org: 'x-scope or x-workflow.orgField (the record\'s organisation)', unit: 'x-scope or x-workflow.unitField (the record\'s unit)', other: 'x-workflow.otherField', self: 'x-workflow.selfField' };

  // Transitions sharing an id are one step at successive levels: never open from the same state.
  const fromById = new Map<string, Map<number, string>>();
  for (const [key, t] of Object.entries(wf.transitions)) {
    const id = t.id ?? key;
    const seen = fromById.get(id) ?? new Map<number, string>();
    for (const from of t.from) {
      if (seen.has(from)) problems.push(`${where}.transitions.${key}: step "${id}" is also open from state ${from} in transition "${seen.get(from)}"`);
      else seen.set(from, key);
    }
    fromById.set(id, seen);
  }
  const named = (step: string) => Object.entries(wf.transitions).filter(([key, x]) => key === step || (x.id ?? key) === step).map(([, x]) => x);
  for (const [id, t] of Object.entries(wf.transitions)) {
    const at = `${where}.transitions.${id}`;
    for (const from of t.from) if (!codes.has(String(from))) problems.push(`${at}.from names undeclared state ${from}`);
    if (typeof t.to === 'number' && !codes.has(String(t.to))) problems.push(`${at}.to names undeclared state ${t.to}`);
    const levels = declaredLevels(t);
    if (levels === 'next') {
      if ((t.result ?? 'pass') === 'pass') problems.push(`${at}.level "next" is for return, reject and withdraw steps`);
    } else {
      for (const level of levels) {
        const read = LEVEL_READS[level];
        // A step for a named organisation reads that one; a school-wide record (no organisation) is the organisation department's.
        const given = read === 'org' && (!!t.forOrg || (level === 'orgdept' && !reads.org));
        if (read && !reads[read] && !given) problems.push(`${at}: level "${level}" needs ${readsText[read]}`);
      }
    }
    const own = new Set(Object.keys(t.stepFields ?? {}));
    for (const name of t.fields ?? []) {
      if (!fields[name]) problems.push(`${at}.fields names unknown field "${name}"`);
      else if (fields[name]['x-computed'] || name === wf.stateField) problems.push(`${at}.fields: "${name}" cannot be filled in at a step`);
    }
    for (const name of own) if (fields[name]) problems.push(`${at}.stepFields: "${name}" is a field of the module: list it under fields`);
    for (const name of t.required ?? []) if (!(t.fields ?? []).includes(name) && !own.has(name)) problems.push(`${at}.required names "${name}", which the step does not take`);
    if (t.forOrg) {
      const f = fields[t.forOrg] ?? t.stepFields?.[t.forOrg];
      if (!f || f.type !== 'integer' || f['x-ref'] !== 'org') problems.push(`${at}.forOrg: "${t.forOrg}" must be an integer field (of the module or the step) with x-ref "org"`);
      else if (!(t.required ?? []).includes(t.forOrg)) problems.push(`${at}.forOrg: "${t.forOrg}" must be required`);
    }
    if (t.doneField) {
      if (t.to !== undefined) problems.push(`${at}.doneField is for steps without "to"`);
      else if (!(t.fields ?? []).includes(t.doneField)) problems.push(`${at}.doneField "${t.doneField}" must be one of the step's fields`);
    }
    for (const todo of t.todos ?? []) {
      const next = named(todo.step);
      if (!next.length) problems.push(`${at}.todos names unknown transition "${todo.step}"`);
      else if (typeof t.to === 'number' && !next.some((x) => x.from.includes(t.to as number))) problems.push(`${at}.todos: "${todo.step}" is not open from state ${t.to}`);
    }
  }
  return problems;
}
