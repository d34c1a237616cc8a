/**
 * Demo 后备干部库 (issue 39 §5): 副处级 cadres of the youngest as 正处级后备干部, 正科级 ones as 副处级后备干部 and
 * the youngest under 40 as 优秀年轻干部, entered by 民主推荐 or 组织推荐 over the last two years, one of them
 * since appointed (已使用) and one adjusted out (已出库). Written through the runtime (its hook names the cadre
 * and unit); a few dozen records, whatever the cadres' count. `count` scales it (DEMO_RESERVE).
 */
import { sql } from 'kysely';
import { addMonths } from '../../shared/calendar.js';
import { localToday } from '../../shared/module-schema/computed.js';
import { SYSTEM_ACTOR } from '../runtime/index.js';
import type { SeedContext } from './index.js';

const KINDS: [rank: string, kind: string, post: string][] = [
  ['06', '正处级后备干部', '学院党委书记、院长'],
  ['07', '副处级后备干部', '学院党委副书记、副院长'],
  ['08', '优秀年轻干部', '科室负责人'],
];

export async function seedDemoReserve({ database, app, log }: SeedContext, count = Number(process.env.DEMO_RESERVE ?? 8)): Promise<void> {
  if (!app) return;
  const today = localToday();
  const records = app.runtime.records('cadre-reserve');
  let written = 0;
  for (const [k, [rank, kind, post]] of KINDS.entries()) {
    const cadres = (await sql<{ id: number }>`SELECT id FROM m_cadre WHERE rank = ${rank} AND tenure_status IN ('1', '2')
      ORDER BY birth_date DESC NULLS LAST, id LIMIT ${count}`.execute(database.db)).rows;
    for (const [i, c] of cadres.entries()) {
      const since = addMonths(today, -(6 + ((i * 5 + k * 7) % 18)));
      const out = i === 0 && k === 0 ? { state: '已使用', outDate: addMonths(today, -1), outReason: '已提任学院党委书记' }
        : i === 1 && k === 1 ? { state: '已出库', outDate: addMonths(today, -2), outReason: '年度考核为基本称职，调整出库' } : {};
      await records.create({ cadreId: c.id, kind, since, basis: i % 3 === 2 ? '组织推荐' : '民主推荐', postInView: post, ...out }, SYSTEM_ACTOR);
      written++;
    }
  }
  log.info({ reserve: written }, 'demo reserve cadres seeded');
}
