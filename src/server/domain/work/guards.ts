/**
 * Guards of the work-management workflows (work-batch, work-task, other-report; docs/work.md). Each refuses with the words
 * of its rule (rules.ts).
 */
import { registerGuard } from '../../runtime/index.js';
import { batchDatesProblem, reportFileProblem, taskOverdueProblem } from './rules.js';

const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

registerGuard('work.batchDates', (ctx) => {
  const message = batchDatesProblem(text(ctx.next.startDate), text(ctx.next.endDate));
  if (message) return { problems: [{ field: 'endDate', message }] };
});

registerGuard('work.taskOverdue', (ctx) => {
  const message = taskOverdueProblem(text(ctx.record.deadline), ctx.today);
  if (message) return { problems: [{ field: 'deadline', message }] };
});

registerGuard('work.reportFile', (ctx) => {
  const message = reportFileProblem(text(ctx.next.file));
  if (message) return { problems: [{ field: 'file', message }] };
});
