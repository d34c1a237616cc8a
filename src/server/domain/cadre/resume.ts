/**
 * The work record (简历, module `cadre-resume`) stays continuous: every write and delete is checked
 * against the cadre's other entries (rules.ts `resumeProblems`; gap allowed: the setting
 * cadreResumeGapMonths, default 0 months). An import's rows are checked against what is stored, one
 * row at a time (rows of the same file written before it included).
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { HttpError } from '../../errors.js';
import { registerHook } from '../../runtime/index.js';
import { RULE_RESUME, resumeProblems, type ResumeEntry } from './rules.js';
import { resumeGapMonths } from './settings.js';

async function entriesOf(db: Kysely<DB>, cadreId: number, except: number[]): Promise<ResumeEntry[]> {
  return (await sql<ResumeEntry>`SELECT id, start_date::text AS "startDate", end_date::text AS "endDate", text, full_time AS "fullTime"
      FROM m_cadre_resume WHERE cadre_id = ${cadreId} AND NOT (id = ANY(${except}::int[]))`.execute(db)).rows;
}

function refuse(problems: string[], field = 'startDate'): never {
  throw new HttpError(400, problems[0], { rule: RULE_RESUME, errors: problems.map((message) => ({ field, message })) });
}

registerHook('cadre.resume', async (ctx) => {
  if (ctx.action === 'delete') return;
  const r = { ...ctx.previous, ...ctx.record } as Record<string, unknown>;
  if (typeof r.cadreId !== 'number' || typeof r.startDate !== 'string') return;
  const others = await entriesOf(ctx.trx, r.cadreId, ctx.id ? [ctx.id] : []);
  const mine: ResumeEntry = { id: ctx.id, startDate: r.startDate, endDate: (r.endDate as string | null) ?? null, text: r.text as string, fullTime: r.fullTime as boolean | null };
  const problems = resumeProblems([...others, mine], await resumeGapMonths());
  if (problems.length) refuse(problems);
});

/** Removing an entry from the middle would open a gap: refused, unless the whole record goes (the cadre deleted). */
registerHook('cadre.resumeDelete', async (ctx) => {
  if (ctx.action !== 'delete') return;
  const ids = ctx.records.map((r) => r.id as number);
  const gap = await resumeGapMonths();
  for (const cadreId of new Set(ctx.records.map((r) => r.cadreId as number))) {
    const problems = resumeProblems(await entriesOf(ctx.trx, cadreId, ids), gap);
    if (problems.length) refuse([`删除后简历不连续：${problems[0]}`]);
  }
});
