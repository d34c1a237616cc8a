import { sql } from 'kysely';
import { linkUserToMember } from '../domain/member/accounts.js';
import { seedDues } from './dues.js';
import type { SeedContext } from './index.js';

/**
 * The demo's dues (seed/dues.ts) for the last 13 months up to this one (so this year and the last both hold
 * batches on any day: in January twelve of last year, in December last December's), and the demo accounts `zbsj` and
 * `dy` linked to in-service members of their branch, so 我的党费 shows a member's own dues: `dy` is one
 * who has not paid this month yet (to try online payment), preferably with a month to pay back. Online
 * payment uses the simulator here (settings: online provider).
 */
export async function seedDemoDues({ database, config, log }: SeedContext): Promise<void> {
  const now = new Date();
  const currentMonth = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`;
  const counts = await seedDues(database, config.school, { currentMonth, today: now.getDate(), months: 13 });
  log.info(counts, 'demo dues seeded');
  // The demo pays online with the simulator; a real deployment starts with online payment off (issue 25.4).
  await database.db
    .insertInto('dues_settings' as never)
    .values({ school: config.school, online_provider: 'simulator' } as never)
    .onConflict((oc) => oc.column('school' as never).doUpdateSet({ online_provider: 'simulator' } as never))
    .execute();
  const branch = await database.db.selectFrom('users').select('org_id').where('username', '=', 'dy').executeTakeFirst();
  if (!branch?.org_id) return;
  const candidates = (await sql<{ id: number; owesBack: boolean; paidNow: boolean }>`
    SELECT m.id,
           EXISTS (SELECT 1 FROM dues_item x JOIN dues_batch xb ON xb.id = x.batch_id AND xb.state = 4 WHERE x.member_id = m.id AND x.payment_id IS NULL) AS "owesBack",
           EXISTS (SELECT 1 FROM dues_item y JOIN dues_batch yb ON yb.id = y.batch_id AND yb.state = 3 WHERE y.member_id = m.id AND y.payment_id IS NOT NULL) AS "paidNow"
    FROM m_member m WHERE m.org_id = ${branch.org_id} AND m.party_status = '1' AND m.category = '1' ORDER BY m.id`.execute(database.db)).rows;
  const unpaid = candidates.filter((c) => !c.paidNow);
  const dy = unpaid.find((c) => c.owesBack) ?? unpaid[0] ?? candidates[0];
  const zbsj = candidates.find((c) => c.id !== dy?.id);
  const users = await database.db.selectFrom('users').select(['id', 'username']).where('username', 'in', ['dy', 'zbsj']).execute();
  for (const u of users) {
    const member = u.username === 'dy' ? dy : zbsj;
    if (member) await linkUserToMember(database.db, u.id, member.id);
  }
}
