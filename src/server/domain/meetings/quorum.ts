/**
 * The `meetings.quorum` hook of the `meeting` module (x-hooks.beforeWrite): a meeting that does not meet
 * its quorum (src/shared/meetings/rules.ts: 支委会 more than half of the committee; a 支部党员大会 that
 * votes more than half of the full members entitled) is refused with the rule's words, unless it is
 * recorded as 无效 on purpose; a meeting is recorded once held (no date ahead), and nobody is both
 * present and absent. A 支委会's committee size is the current term's (attendance.ts).
 */
import { quorumOf } from '../../../shared/meetings/rules.js';
import { localToday } from '../../../shared/module-schema/computed.js';
import { HttpError } from '../../errors.js';
import { registerHook } from '../../runtime/index.js';
import { COMMITTEE_MEETING, committeeOf } from './attendance.js';

const refuse = (field: string, message: string) => new HttpError(400, message, { errors: [{ field, message }] });

registerHook('meetings.quorum', async (ctx) => {
  if (ctx.action === 'delete') return;
  const r = { ...ctx.previous, ...ctx.record };
  // A 支委会's committee is the current term's (issue 43.7): its size is not what was typed.
  if (r.type === COMMITTEE_MEETING && typeof r.orgId === 'number') {
    const committee = await committeeOf(ctx.trx, r.orgId);
    if (committee) r.committeeSize = ctx.record.committeeSize = committee.names.length;
  }
  if (typeof r.date === 'string' && r.date > localToday()) throw refuse('date', `会议日期（${r.date}）不能晚于今天：会议召开后登记`);
  const present = new Set(Array.isArray(r.attendeeIds) ? (r.attendeeIds as number[]) : []);
  const both = (Array.isArray(r.absentIds) ? (r.absentIds as number[]) : []).filter((id) => present.has(id));
  if (both.length) throw refuse('absentIds', '同一人不能既是出席人员又是缺席人员');
  if (r.invalid === true) return;
  const check = quorumOf(r);
  if (check.ok === false) throw refuse(check.field ?? 'attendeeIds', `${check.text}；如确需登记，请标记为无效会议`);
});
