/**
 * State codes of a workflow module as its school-merged schema declares them (issue 24 §3.8): domain code
 * asks here instead of listing codes by hand, so a school override that adds or renames a state keeps
 * every query and count in step.
 */
import type { RuntimeModule } from '../module.js';

/** The states that end a record (`final: true`): done, archived, rejected, withdrawn. */
export function finalStates(module: RuntimeModule): number[] {
  const states = module.workflow?.schema.states ?? {};
  return Object.entries(states)
    .filter(([, s]) => s.final)
    .map(([code]) => Number(code));
}

/** Final states that end a record without completing it: negative by convention (DESIGN §9: rejected, withdrawn). */
export function endedUnfinishedStates(module: RuntimeModule): number[] {
  return finalStates(module).filter((code) => code < 0);
}
