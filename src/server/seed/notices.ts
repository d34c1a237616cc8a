import type { Database } from '../db/database.js';

/** Notices of the demo school, as an administrator publishes them (messages of type notice, one per account). */
const NOTICES = [
  { title: '关于开展2026年度党员民主评议工作的通知', content: '各党支部：请于12月20日前完成本支部党员民主评议，评议结果经支部党员大会通过后报党委组织部备案。' },
  { title: '关于按时缴纳党费的提醒', content: '请各位党员于每月25日前通过“我的党费”在线缴纳或到所在支部现场缴纳党费；缓交的月份可在缓交结束后补缴。' },
  { title: '党校第二期入党积极分子培训班开班通知', content: '第二期入党积极分子培训班将于下周一开班，学员请登录学习中心完成线上课程学习，并按时参加结业考试。' },
];

/** Gives every account the demo notices (the workbench's 通知公告), the oldest first. */
export async function seedDemoNotices(database: Database): Promise<number> {
  const { db } = database;
  const users = await db.selectFrom('users').select('id').execute();
  const admin = await db.selectFrom('users').select(['id']).where('username', '=', 'admin').executeTakeFirst();
  const day = 24 * 60 * 60 * 1000;
  let count = 0;
  for (const [i, n] of NOTICES.entries()) {
    if (!users.length) break;
    await db
      .insertInto('msg_push_history')
      .values(users.map((u) => ({ user_id: u.id, sender_id: admin?.id ?? null, sender_name: '党委组织部', type: 'notice' as const, title: n.title, content: n.content, link: null })))
      .execute();
    // created_at is the insert's; spread the notices over the last days so they list in order.
    await db.updateTable('msg_push_history').set({ created_at: new Date(Date.now() - (NOTICES.length - i) * day) } as never).where('title', '=', n.title).execute();
    count += users.length;
  }
  return count;
}
