import { hashPassword } from '../core/passwords.js';
import type { SeedContext } from './index.js';

/** The password of every demo account except `admin` (listed in the README and printed at start). */
export const DEMO_USER_PASSWORD = 'Dangjian@2026';

export const DEMO_ACCOUNTS = [
  { username: 'dwzzb', nickName: '党委组织部管理员' },
  { username: 'zbsj', nickName: '支部书记（演示）' },
  { username: 'dy', nickName: '党员（演示）' },
] as const;

export interface DemoSeeder {
  name: string;
  run(ctx: SeedContext): Promise<void>;
}

/** Demo seeders run in this order, once, on the first start of an empty database. */
export const demoSeeders: DemoSeeder[] = [
  {
    name: 'demo-accounts',
    async run({ database }) {
      const passwordHash = await hashPassword(DEMO_USER_PASSWORD);
      await database.db
        .insertInto('users')
        .values(DEMO_ACCOUNTS.map((a) => ({ username: a.username, nick_name: a.nickName, password_hash: passwordHash })))
        .onConflict((oc) => oc.column('username').doNothing())
        .execute();
    },
  },
];
