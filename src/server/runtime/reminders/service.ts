/**
 * The reminders of every module (x-reminders, docs/schema.md): recomputed inside each write of a record
 * (records.ts and the workflow engine call `remindersAfterWrite`/`remindersAfterDelete`), and for every
 * record once a day; announcements delivered from the outbox at least once; the 智能提醒 list, the
 * switches and closing by hand.
 */
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { localToday } from '../../../shared/module-schema/computed.js';
import { REMINDER_STATE, isExpected } from '../../../shared/module-schema/reminders.js';
import type { MessageService } from '../../core/messages/service.js';
import type { DB } from '../../db/types.js';
import type { RuntimeContext } from '../context.js';
import type { RuntimeModule } from '../module.js';
import { ReminderComputer, type ComputeDeps, type Counts } from './compute.js';
import { remindersOf } from './model.js';
import { deliverOutbox, type AnnouncementSender } from './outbox.js';

export interface ReminderDeps extends ComputeDeps {
  messages(): MessageService | undefined;
  log: FastifyBaseLogger;
}

const attached = new WeakMap<RuntimeContext, Reminders>();
const REFRESH_PAGE = 200;

/** Called by every write path of the runtime, in the write's transaction, after the record is stored. */
export async function remindersAfterWrite(ctx: RuntimeContext, trx: Kysely<DB>, m: RuntimeModule, ids: number[]): Promise<void> {
  await attached.get(ctx)?.afterWrite(trx, m, ids);
}

/** Called when records are deleted, in the delete's transaction (rows: the deleted records). */
export async function remindersAfterDelete(ctx: RuntimeContext, trx: Kysely<DB>, m: RuntimeModule, rows: Record<string, unknown>[]): Promise<void> {
  await attached.get(ctx)?.afterDelete(trx, m, rows);
}

export class Reminders {
  readonly computer: ReminderComputer;
  /** Replaced by tests to make a send fail; by default the message service (type 'remind'). */
  sender: AnnouncementSender = async (a) => {
    const messages = this.deps.messages();
    if (!messages) throw new Error('no message service');
    await messages.sendMessage({ toUserIds: a.toUserIds, type: 'remind', title: a.title, content: a.content, link: a.link, reminderId: a.reminderId });
  };

  constructor(private readonly deps: ReminderDeps) {
    this.computer = new ReminderComputer(deps);
    attached.set(deps.ctx, this);
  }

  private get db(): Kysely<DB> {
    return this.deps.ctx.db;
  }

  /** Modules declaring reminders. */
  modules(): RuntimeModule[] {
    return this.deps.ctx.registry.list().filter((m) => remindersOf(m).length);
  }

  async afterWrite(trx: Kysely<DB>, m: RuntimeModule, ids: number[]): Promise<void> {
    if (!ids.length) return;
    const today = localToday();
    if (remindersOf(m).length) await this.computer.recompute(trx, m, ids, today);
    const parents = this.computer.parentsOf(m, await this.rowsOf(trx, m, ids));
    for (const p of parents) await this.computer.recompute(trx, p.parent, p.ids, today);
  }

  async afterDelete(trx: Kysely<DB>, m: RuntimeModule, rows: Record<string, unknown>[]): Promise<void> {
    await this.computer.finishRecords(trx, m, rows.map((r) => r.id as number));
    for (const p of this.computer.parentsOf(m, rows)) await this.computer.recompute(trx, p.parent, p.ids, localToday());
  }

  /** Child rows' foreign keys, read only when some module counts from this one's dates. */
  private async rowsOf(trx: Kysely<DB>, m: RuntimeModule, ids: number[]): Promise<Record<string, unknown>[]> {
    if (!this.modules().some((p) => remindersOf(p).some((d) => 'field' in d.date && d.date.child === m.id))) return [];
    const fields = m.storedFields.filter((f) => f.column);
    return (trx as Kysely<any>) // eslint-disable-line @typescript-eslint/no-explicit-any
      .selectFrom(m.table)
      .select(['id', ...fields.map((f) => `${f.column} as ${f.name}`)])
      .where('id', 'in', ids)
      .execute();
  }

  /**
   * Recomputes every reminder of these modules (default all) as of `today`, a page of records per transaction;
   * answers the reminders calling for attention (START) per module and type.
   */
  async refresh(options: { modules?: string[]; today?: string; types?: string[] } = {}): Promise<Counts> {
    const today = options.today ?? localToday();
    const modules = this.modules().filter((m) => !options.modules || options.modules.includes(m.id));
    // A page of records per transaction: on the embedded engine a transaction holds the only connection.
    for (const m of modules) {
      for (let after = 0; ; ) {
        const ids = (await (this.db as Kysely<any>).selectFrom(m.table).select('id').where('id', '>', after).orderBy('id').limit(REFRESH_PAGE).execute()).map((r: { id: number }) => r.id); // eslint-disable-line @typescript-eslint/no-explicit-any
        if (!ids.length) break;
        await this.deps.ctx.beforeTransaction();
        await this.db.transaction().execute((trx) => this.computer.recompute(trx, m, ids, today, options.types));
        after = ids[ids.length - 1];
      }
      await this.computer.finishGone(this.db, m);
      await this.expectedChanged(m, today, options.types);
    }
    const counts: Counts = {};
    for (const m of modules) counts[m.id] = Object.fromEntries(remindersOf(m).map((d) => [d.type, 0]));
    if (!modules.length) return counts;
    const rows = await this.db
      .selectFrom('reminders')
      .select(['module', 'type', sql<number>`count(*)::int`.as('n')])
      .where('state', '=', REMINDER_STATE.START)
      .where('module', 'in', modules.map((m) => m.id))
      .groupBy(['module', 'type'])
      .execute();
    for (const r of rows) if (counts[r.module] && r.type in counts[r.module]) counts[r.module][r.type] = r.n;
    return counts;
  }

  /**
   * Recomputes a module's reminders from expected-record sources (a publication, or what fulfils it,
   * changed): called by the domain service after its write, and by the daily run.
   */
  async expectedChanged(m: RuntimeModule, today = localToday(), types?: string[]): Promise<void> {
    if (!remindersOf(m).some(isExpected)) return;
    await this.deps.ctx.beforeTransaction();
    await this.db.transaction().execute((trx) => this.computer.recomputeExpected(trx, m, today, types));
  }

  /** Sends the announcements due (of these modules, or all); answers how many were sent. */
  deliver(options: { modules?: string[]; now?: Date } = {}): Promise<number> {
    return deliverOutbox(this.db, (a) => this.sender(a), { ...options, onError: (err, id) => this.deps.log.warn({ err, outbox: id }, 'a reminder could not be sent; it is tried again later') });
  }

  /** Recomputes these modules' reminders and sends what became due: a run of the daily job for them. */
  async run(options: { modules?: string[]; today?: string } = {}): Promise<number> {
    await this.refresh(options);
    return this.deliver({ modules: options.modules });
  }

  /**
   * The daily recomputation (shortly after the start, then every day) and the delivery of the outbox
   * (every minute: announcements written by writes, and retries). Answers the function that stops both.
   */
  schedule(options: { firstMs?: number; dailyMs?: number; deliverMs?: number } = {}): () => Promise<void> {
    const { log } = this.deps;
    let running = false;
    // The runs in flight: stopping waits for them, so a server closing its database mid-run does not
    // log the run failing on a destroyed driver.
    const inFlight = new Set<Promise<unknown>>();
    const track = (p: Promise<unknown>) => {
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    };
    const daily = () => track(this.run().then((n) => n && log.info({ sent: n }, 'reminders recomputed and sent'), (err: unknown) => log.warn({ err }, 'reminders failed')));
    const deliver = () => {
      if (running) return;
      running = true;
      track(this.deliver()
        .catch((err: unknown) => log.warn({ err }, 'reminder delivery failed'))
        .finally(() => (running = false)));
    };
    const timers = [setTimeout(daily, options.firstMs ?? 20_000), setInterval(daily, options.dailyMs ?? 24 * 60 * 60_000), setInterval(deliver, options.deliverMs ?? 60_000)];
    for (const t of timers) t.unref();
    return async () => {
      timers.forEach((t) => clearTimeout(t));
      await Promise.allSettled([...inFlight]);
    };
  }

  /** START reminders of enabled types each user receives (the remind counter of spec §4). */
  async startedFor(userIds: number[], db: Kysely<DB> = this.db): Promise<Map<number, number>> {
    if (!userIds.length) return new Map();
    const rows = await sql<{ user_id: number; n: number }>`
      SELECT u.user_id, count(*)::int AS n FROM reminders r
      CROSS JOIN LATERAL unnest(r.receivers) AS u(user_id)
      LEFT JOIN reminder_settings s ON s.module = r.module AND s.type = r.type
      WHERE r.state = ${REMINDER_STATE.START} AND coalesce(s.enabled, 1) = 1 AND r.receivers && ${userIds}::int[] AND u.user_id = ANY(${userIds}::int[])
      GROUP BY u.user_id`.execute(db);
    return new Map(rows.rows.map((r) => [r.user_id, r.n]));
  }
}
