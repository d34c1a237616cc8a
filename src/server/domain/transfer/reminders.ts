/**
 * Reminders of the transfer area, computed on the server from the records' dates and sent through the
 * message service (type `remind`, 智能提醒) to those who act on the record:
 * - 临时组织关系到期: a temporary letter's end date has passed (the member should be back, or transfer for good);
 * - 流动党员返回到期: a floating member's expected return date has passed and the floating is not ended.
 * Each (record, kind, due date) is reminded once (table workflow_reminders), also with several servers.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { chineseDate } from '../../../shared/calendar.js';
import { localToday } from '../../../shared/module-schema/computed.js';
import type { MessageService } from '../../core/messages/service.js';
import type { DB } from '../../db/types.js';
import type { Runtime } from '../../runtime/index.js';
import { todoLink } from '../../runtime/workflow/links.js';

interface Due {
  id: number;
  name: string;
  state: number;
  orgId: number | null;
  dueOn: string;
}

interface Kind {
  kind: string;
  module: string;
  /** The step whose actors are reminded. */
  step: string;
  orgColumn: string;
  dueColumn: string;
  where: (today: string) => RawBuilder<boolean>;
  title: (d: Due) => string;
  content: (d: Due) => string;
}

const KINDS: Kind[] = [
  {
    kind: 'temporary-ended',
    module: 'transfer-out',
    step: 'submit',
    orgColumn: 'org_id',
    dueColumn: 'end_date',
    where: (today) => sql<boolean>`kind = '临时组织关系' AND state = 3 AND end_date < ${today}::date`,
    title: (d) => `临时组织关系已到期：${d.name}`,
    content: (d) => `${d.name}的临时组织关系已于${chineseDate(d.dueOn)}到期，请了解党员是否已返回；如需长期在外学习或工作，应办理正式组织关系转接。`,
  },
  {
    kind: 'floating-return',
    module: 'floating',
    step: 'complete',
    orgColumn: 'org_id',
    dueColumn: 'expected_return_date',
    where: (today) => sql<boolean>`state = 1 AND expected_return_date < ${today}::date`,
    title: (d) => `流动党员预计返回日期已过：${d.name}`,
    content: (d) => `流动党员${d.name}的预计返回日期为${chineseDate(d.dueOn)}，请联系党员，已返回的请办理“结束流动”，仍在外的请更新预计返回日期。`,
  },
];

/** Sends the reminders due as of `today`; answers how many records were reminded. */
export async function sendTransferReminders(services: { runtime: Runtime; db: Kysely<DB>; messages: MessageService }, today: string = localToday()): Promise<number> {
  const { runtime, db, messages } = services;
  const directory = runtime.workflows.newDirectory();
  let sent = 0;
  for (const kind of KINDS) {
    const m = runtime.module(kind.module);
    if (!m?.workflow) continue;
    const rows = await sql<Due>`
      SELECT id, name, state, ${sql.ref(kind.orgColumn)} AS "orgId", ${sql.ref(kind.dueColumn)}::text AS "dueOn"
      FROM ${sql.table(m.table)} WHERE ${kind.where(today)} ORDER BY id`.execute(db);
    for (const due of rows.rows) {
      const fresh = await sql`
        INSERT INTO workflow_reminders (module, record_id, kind, due_on) VALUES (${kind.module}, ${due.id}, ${kind.kind}, ${due.dueOn}::date)
        ON CONFLICT DO NOTHING RETURNING record_id`.execute(db);
      if (!fresh.rows.length) continue;
      const toUserIds = await runtime.workflows.actorsOf(m, kind.step, { ...due, [m.scopeField!.name]: due.orgId }, directory);
      if (!toUserIds.length) continue;
      const link = (await todoLink(runtime.ctx, m))?.replace('{id}', String(due.id)) ?? null;
      await messages.sendMessage({ toUserIds, type: 'remind', title: kind.title(due), content: kind.content(due), link });
      sent++;
    }
  }
  return sent;
}
