/**
 * "Waiting for me" (`"$waiting": true` in a list body): the list condition of records whose next step the
 * caller may take now, or (`later`) whose step waits on its `notBefore` date.
 */
import { sql } from 'kysely';
import { localToday } from '../../../shared/module-schema/computed.js';
import type { WorkflowLevel } from '../../../shared/module-schema/workflow.js';
import { hasAnyPermission, type SessionUser } from '../../core/auth/session-user.js';
import type { RuntimeModule } from '../module.js';
import type { Condition } from '../query.js';
import { levelFields, levelNamed, type OrgLevels, type Participant } from './levels.js';

/**
 * The list condition of "waiting for me": records in a state whose next step the caller may take now;
 * `later`: those whose step waits on its `notBefore` date (issue 33.11). A draft (a negative initial
 * state: not yet submitted) is its author's to submit, not anyone's approval.
 */
export async function waitingCondition(m: RuntimeModule, user: SessionUser, p: Participant, levels: OrgLevels, when: 'now' | 'later' = 'now'): Promise<Condition> {
  const wf = m.workflow!;
  const stateCol = wf.stateField.column!;
  const clauses: Condition[] = [];
  const today = localToday();
  for (const t of wf.waitingSteps()) {
    if (!hasAnyPermission(user, [t.permission])) continue;
    const from = wf.initial < 0 ? t.from.filter((s) => s !== wf.initial) : t.from;
    const dateCol = t.notBefore ? m.field(t.notBefore)?.column : undefined;
    if (!from.length || (when === 'later' && !dateCol)) continue;
    for (const level of wf.levelsOf(t, from[0])) {
      const org = await orgCondition(m, level, p, levels);
      if (org === false) continue;
      const done = t.doneField ? m.field(t.doneField)?.column : undefined;
      clauses.push((eb) =>
        eb.and([
          eb(stateCol, 'in', from),
          ...(done ? [eb(done, 'is', null)] : []),
          ...(dateCol ? [when === 'later' ? eb(dateCol, '>', today) : eb.or([eb(dateCol, 'is', null), eb(dateCol, '<=', today)])] : []),
          ...(org === true ? [] : [org(eb)]),
        ]),
      );
    }
  }
  return (eb) => (clauses.length ? eb.or(clauses.map((c) => c(eb))) : eb.val(false));
}

/** Which records make the participant the actor at a level (its registered resolver): always, never, or a condition. */
async function orgCondition(m: RuntimeModule, level: WorkflowLevel, p: Participant, levels: OrgLevels): Promise<Condition | boolean> {
  if (p.isSuper) return true;
  const which = await levelNamed(level).records(p, levels);
  if (typeof which === 'boolean') return which;
  const column = levelFields(m)[which.on]?.column;
  if (!column) return false;
  if (which.ids === 'all') return true;
  const ids = which.ids;
  return (eb) => eb(sql.ref(column), '=', sql<number>`ANY(${ids}::int[])`);
}
