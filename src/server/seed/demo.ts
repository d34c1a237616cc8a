import fs from 'node:fs';
import path from 'node:path';
import { getSchoolInfo } from '../../shared/school-branding.js';
import { modulePermissions } from '../../shared/module-schema/fields.js';
import type { ModuleSchema } from '../../shared/module-schema/types.js';
import { hashPassword } from '../core/passwords.js';
import { seedDemoDues } from './demo-dues.js';
import { seedDemoForms } from './forms.js';
import { seedPschool } from './pschool/seed.js';
import { seedDevelopment, seedWorkflowTodos } from './development.js';
import { seedGraduates } from './graduates.js';
import { seedLifecycle } from './lifecycle.js';
import { seedDemoNotices } from './notices.js';
import { seedDemoMobile } from './mobile.js';
import { seedTransfers } from './transfers.js';
import { seedStatistics } from './statistics.js';
import { seedDemoCadres } from './cadres.js';
import { seedDemoAppointments } from './cadre-appointments.js';
import { seedDemoCadreAbroad } from './cadre-abroad.js';
import { seedDemoDispatches } from './cadre-dispatch.js';
import { seedDemoReserve } from './cadre-reserve.js';
import { seedDemoSupervision } from './cadre-supervision.js';
import { seedMeetings } from './meetings.js';
import { seedElections } from './elections.js';
import { seedMemberLife } from './member-life.js';
import { seedWork } from './work.js';
import { seedTemplates } from './templates.js';
import { seedUniversity } from './university/seed.js';
import { generateUniversity } from './university/university.js';
import { MenuService } from '../core/menus/service.js';
import type { DataScopeKind } from '../core/tables.js';
import { collectPermissions, flattenMenus, type MenuNode } from '../../shared/menus.js';
import type { SeedContext } from './index.js';
import { SCHEMAS_DIR } from '../paths.js';

/** The password of every demo account except `admin` (listed in the README and printed at start). */
export const DEMO_USER_PASSWORD = 'Dangjian@2026';

/** Each demo account holds the demo role of the same code. */
export const DEMO_ACCOUNTS = [
  { username: 'dwzzb', nickName: '党委组织部管理员', role: 'dwzzb' },
  { username: 'zbsj', nickName: '支部书记（演示）', role: 'zbsj' },
  { username: 'dy', nickName: '党员（演示）', role: 'dy' },
  { username: 'ejdw', nickName: '二级党委组织员（演示）', role: 'ejdw' },
  // A branch beside zbsj's under the same committee: the receiving side of a transfer within the school (issue 33.9).
  { username: 'jszb', nickName: '接收支部书记（演示）', role: 'zbsj' },
] as const;

/** System administration stays with the superuser (both the API's and the menu file's spellings). */
const SYSTEM_PERMISSION = /^(users?|roles?|menus?|dicts?|sysconfig|online|outbox|sms-outbox):/;

/** The organisation department's own: 入党志愿书 number ranges. */
const ORG_DEPARTMENT_ONLY = /^development-book-range:/;


/** What the school and the committees do for their branches: publish theme party day plans (issue 27). */
const COMMITTEE_UP = /^meeting-theme-plan:/;

/** Permissions of the pages and buttons below these menu nodes (their ids in schemas/menus.json). */
function permissionsUnder(tree: MenuNode[], ...nodeIds: string[]): string[] {
  return collectPermissions(flattenMenus(tree).filter((n) => nodeIds.includes(n.id)));
}

/**
 * Members' daily management and evaluation (issue 27): the branch records (talks, rewards, assistance, points,
 * duty reports, appraisal rounds); the level above approves, scores assessments and decides on weak branches.
 */
const EVALUATION_ABOVE = /^(member-assist:approve|member-points:(approve|settings)|org-weak:(decide|accept|close|dismiss)|duty-report:(review|publish)|appraisal:approve)$/;
/** 党籍管理 (issue 41): the branch proposes (支部大会) and decides at its level; the committee above approves. */
const LIFECYCLE_ABOVE = /^member-(discipline|quit|suspend|abroad|stay):(approve|reject)$|^graduate-batch:/;

const evaluationOfBranch = (tree: MenuNode[]) => [
  ...permissionsUnder(tree, 'member-daily', 'org-weak', 'stat-duty-report', 'service-appraisal').filter((p) => !EVALUATION_ABOVE.test(p)),
  'service-assess-plan:list',
];
const evaluationAbove = (tree: MenuNode[]) =>
  permissionsUnder(tree, 'member-daily', 'org-weak', 'stat-duty-report', 'service-assess-plan', 'service-appraisal').filter((p) => p !== 'member-points:settings');

/** Each module's list, edit and delete permissions → its view permission (read from the module schemas). */
let viewOf: Map<string, string> | undefined;
function viewPermissions(): Map<string, string> {
  if (viewOf) return viewOf;
  viewOf = new Map();
  const dir = path.join(SCHEMAS_DIR, 'modules');
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const p = modulePermissions(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as ModuleSchema);
    for (const action of ['list', 'edit', 'delete'] as const) viewOf.set(p[action], p.view);
  }
  return viewOf;
}

/**
 * A role that may list, change or delete a module's records may also open them: the menus grant buttons
 * (list, add, edit, ...) but no "view", and without it the detail and `list?fields=all` are refused.
 */
function withViews(permissions: string[]): string[] {
  const views = viewPermissions();
  return [...new Set([...permissions, ...permissions.flatMap((p) => (views.has(p) ? [views.get(p)!] : []))])];
}

interface DemoRole {
  code: string;
  name: string;
  description: string;
  level: number;
  dataScope: DataScopeKind;
  /** Read from the menu tree, so a role follows the menu as it grows. */
  permissions(tree: MenuNode[]): string[];
}

export const DEMO_ROLES: DemoRole[] = [
  {
    code: 'dwzzb', name: '党委组织部管理员', description: '全校党建业务管理（不含系统管理）', level: 2, dataScope: 'all',
    // 规则参数 (issue 42): the organisation department sets the rules' numbers, though the page sits under 系统管理.
    permissions: (tree) => withViews([...collectPermissions(tree.filter((n) => n.id !== 'system')).filter((p) => !SYSTEM_PERMISSION.test(p)), ...permissionsUnder(tree, 'sys-rule-params')]),
  },
  {
    code: 'zbsj', name: '支部书记', description: '本支部党员、发展党员、组织关系转接、组织生活、党费收缴、党校学习与消息', level: 3, dataScope: 'own',
    permissions: (tree) => withViews([
      'member:list', 'member:view', 'member:edit', 'member:export', 'org:list',
      // 信息修改申请 (issue 31): the branch checks its members' requests; the secretary, a member too, may ask for their own.
      'member-change-request:list', 'member-change-request:export', 'member-change-request:approve', 'member-change-request:return',
      'member-change-request:add', 'member-change-request:edit', 'member-change-request:delete', 'member-change-request:submit',
      // 移动终端 (issue 31): the page with the mobile terminal's link and QR code.
      'service-mobile:list',
      // 任务管理 (issue 29): the branch reads the tasks given to it and reports back.
      'service-task:list', 'work-task:report', 'service-download:list',
      // 其他报表 (issue 29): the branch uploads its periodic reports, saves and submits them.
      'stat-other-report:list', 'stat-other-report:add', 'stat-other-report:edit', 'other-report:stash', 'other-report:submit',
      // 填报管理 (issue 29): the branch fills the forms published to it.
      'stat-fill-in:list', 'stat-fill-in:fill',
      // 模板管理 (issue 29): the branch fills the school's templates (证明信, 介绍信) from its own records.
      'service-template:list', 'service-template:render',
      // Elections (issue 28): the branch's own steps; the steps of the level above check the level.
      ...permissionsUnder(tree, 'org-election'),
      ...permissionsUnder(tree, 'development', 'transfer', 'org-life', 'pschool-study', 'message-center').filter((p) => !ORG_DEPARTMENT_ONLY.test(p) && !COMMITTEE_UP.test(p)),
      // Dues: the branch's standards (confirm), its batch (report, deferrals), on-site payment and reports.
      'dues:list', 'dues:edit', 'dues:export', 'dues:confirm', 'dues-batch:list', 'dues-batch:report', 'dues-batch:defer',
      ...permissionsUnder(tree, 'dues-onsite', 'dues-report', 'dues-my'),
      ...evaluationOfBranch(tree),
      ...permissionsUnder(tree, 'member-lifecycle').filter((p) => !LIFECYCLE_ABOVE.test(p)),
      // Statistics (issue 30): 综合查询 and 统计报表 over the branch's own records.
      'service-query:list', 'stat-report:list',
    ]),
  },
  {
    // The level between branch and organisation department: the college's committee (workflow level "committee").
    code: 'ejdw', name: '二级党委组织员', description: '本院党委（党总支）所属支部的党员、发展党员与组织关系转接审批、消息', level: 3, dataScope: 'own',
    permissions: (tree) => withViews([
      'member:list', 'member:view', 'org:list', 'service-mobile:list', ...permissionsUnder(tree, 'development', 'transfer', 'org-life', 'message-center').filter((p) => !ORG_DEPARTMENT_ONLY.test(p)),
      ...permissionsUnder(tree, 'org-election'), ...evaluationAbove(tree),
      // 党籍管理 (issue 41): the committee approves its branches' decisions (出党, 停止党籍, 处分, 出国（境）, 暂留).
      ...permissionsUnder(tree, 'member-lifecycle').filter((p) => LIFECYCLE_ABOVE.test(p) || /:(list|export|return)$/.test(p)),
      // 工作管理 (issue 29): the committee gives its branches tasks (declares the overdue ones not completed) and collects their reports.
      ...permissionsUnder(tree, 'service-task', 'stat-other-report'), 'service-batch:list', 'service-download:list',
      'service-template:list', 'service-template:render',
      // Statistics (issue 30): 综合查询 and 统计报表 over the committee's records; it designs its own reports.
      'service-query:list', 'stat-report:list', 'stat-report:design',
      // 党费收缴 (issue 24 §4): the committee's own report of a batch is its step (上报 at the committee's level).
      'dues-batch:list', 'dues-batch:report',
    ]),
  },
  {
    code: 'dy', name: '党员', description: '党校学习、我的党费、消息与规章制度', level: 4, dataScope: 'own',
    permissions: (tree) => withViews([...permissionsUnder(tree, 'pschool-study', 'message-center', 'dues-my'), 'regulation:list', 'service-task:list', 'work-task:report-self', 'service-download:list',
      // 信息修改申请 (issue 31): a member asks the branch to change their own record (我的档案 on the phone).
      'member-change-request:list', 'member-change-request:add', 'member-change-request:edit', 'member-change-request:delete', 'member-change-request:submit']),
  },
];

export interface DemoSeeder {
  name: string;
  run(ctx: SeedContext): Promise<void>;
}

/** Demo seeders run in this order, once, on the first start of an empty database. */
/** Members in the demo university of `npm start` (DEMO_MEMBERS overrides). */
export const DEMO_MEMBER_COUNT = 3000;
/** Applications for membership in the demo university (DEMO_APPLICANTS overrides). */
export const DEMO_APPLICANT_COUNT = 400;
/** Records per transfer process in the demo university (DEMO_TRANSFERS overrides). */
export const DEMO_TRANSFER_COUNT = 60;

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
  {
    // Runs after the app synchronised the menu table from schemas/menus.json.
    name: 'demo-roles',
    async run({ database }) {
      const { db } = database;
      const tree = await new MenuService(database).menuNodes();
      await db
        .insertInto('roles')
        .values(DEMO_ROLES.map((r) => ({ code: r.code, name: r.name, description: r.description, level: r.level, data_scope: r.dataScope, permissions: [...new Set(r.permissions(tree))].sort() })))
        .onConflict((oc) => oc.column('code').doNothing())
        .execute();
      const users = await db.selectFrom('users').select(['id', 'username']).where('username', 'in', DEMO_ACCOUNTS.map((a) => a.username)).execute();
      const roles = await db.selectFrom('roles').select(['id', 'code']).where('code', 'in', DEMO_ROLES.map((r) => r.code)).execute();
      const grants = DEMO_ACCOUNTS.flatMap((a) => {
        const user = users.find((u) => u.username === a.username);
        const role = roles.find((r) => r.code === a.role);
        return user && role ? [{ user_id: user.id, role_id: role.id }] : [];
      });
      if (grants.length) await db.insertInto('user_roles').values(grants).onConflict((oc) => oc.doNothing()).execute();
    },
  },
  {
    // A realistic university: units, the organisation tree, classes, students, teachers and members.
    // The demo branch secretary and member belong to the first teachers' branch; 组织部 to the root.
    name: 'demo-university',
    async run({ database, config, log }) {
      const members = Number(process.env.DEMO_MEMBERS ?? DEMO_MEMBER_COUNT);
      const university = generateUniversity({ members, name: getSchoolInfo(config.school).schoolName });
      const { counts, orgIds } = await seedUniversity(database, university, config.school);
      log.info(counts, 'demo university seeded');
      const branch = university.orgs.find((o) => o.kind === 'teacher' && o.type === '3')!;
      const sibling = university.orgs.find((o) => o.type === '3' && o.parentKey === branch.parentKey && o.key !== branch.key) ?? branch;
      const placement: Record<string, string> = { dwzzb: 'org-root', zbsj: branch.key, dy: branch.key, ejdw: branch.parentKey!, jszb: sibling.key };
      for (const [username, orgKey] of Object.entries(placement)) {
        await database.db.updateTable('users').set({ org_id: orgIds.get(orgKey) ?? null }).where('username', '=', username).execute();
      }
    },
  },
  {
    // Batches, classes, courses with their media, questions, exams, results and learners (after the university).
    name: 'demo-pschool',
    async run(ctx) {
      ctx.log.info(await seedPschool(ctx), 'demo party school seeded');
    },
  },
  {
    // Applications in every step of the development workflow, with the demo branch holding one of each.
    name: 'demo-development',
    async run({ database, config, log, app }) {
      const branch = await database.db.selectFrom('users').select('org_id').where('username', '=', 'zbsj').executeTakeFirst();
      const counts = await seedDevelopment(database, {
        count: Number(process.env.DEMO_APPLICANTS ?? DEMO_APPLICANT_COUNT),
        school: config.school,
        focusBranchIds: branch?.org_id ? [branch.org_id] : [],
      });
      log.info(counts, 'demo applications seeded');
      if (app) log.info({ todos: await seedWorkflowTodos(app, 'development') }, 'demo to-dos seeded');
    },
  },
  {
    // Transfers in, out and within the school and floating members in every state; the demo branch holds one of each.
    name: 'demo-transfers',
    async run({ database, config, log, app }) {
      const branch = await database.db.selectFrom('users').select('org_id').where('username', '=', 'zbsj').executeTakeFirst();
      const counts = await seedTransfers(database, {
        school: config.school,
        schemasDir: SCHEMAS_DIR,
        count: Number(process.env.DEMO_TRANSFERS ?? DEMO_TRANSFER_COUNT),
        focusBranchIds: branch?.org_id ? [branch.org_id] : [],
      });
      log.info(counts, 'demo transfers seeded');
      if (app) {
        let todos = 0;
        for (const module of ['transfer-internal', 'transfer-out', 'transfer-in', 'floating']) todos += await seedWorkflowTodos(app, module);
        log.info({ todos }, 'demo transfer to-dos seeded');
      }
    },
  },
  {
    // Terms of every organisation, a finished branch election with its ballots, one in progress (issue 28).
    name: 'demo-elections',
    async run({ database, config, log }) {
      const users = await database.db.selectFrom('users').select(['username', 'org_id']).where('username', 'in', ['zbsj', 'ejdw']).execute();
      const orgOf = (u: string) => users.find((x) => x.username === u)?.org_id ?? null;
      log.info(await seedElections(database, { school: config.school, focusBranchId: orgOf('zbsj'), focusCommitteeId: orgOf('ejdw') }), 'demo elections seeded');
    },
  },
  {
    // A year and more of 三会一课, 主题党日 (with the school's plans), 组织生活会 and 民主生活会, with gaps (issue 27).
    name: 'demo-meetings',
    async run({ database, config, log, app }) {
      const branch = await database.db.selectFrom('users').select('org_id').where('username', '=', 'zbsj').executeTakeFirst();
      log.info(await seedMeetings(database, { school: config.school, focusBranchIds: branch?.org_id ? [branch.org_id] : [] }), 'demo meetings seeded');
      if (app) log.info({ todos: await seedWorkflowTodos(app, 'meeting') }, 'demo meeting to-dos seeded');
    },
  },
  // About 600 cadres with their nine kinds of records, teams and staffing of every unit, reminders due (issue 26).
  { name: 'demo-cadres', run: seedDemoCadres },
  // Selection and appointment in every stage, after the cadres (issue 26).
  { name: 'demo-appointments', run: seedDemoAppointments },
  // 因私出国（境） (issue 39.3): passports in every state, trips in every step, one late and escalated.
  { name: 'demo-cadre-abroad', run: seedDemoCadreAbroad },
  // 职位目录 of every unit and 任免文件 of the completed appointments, after them (issue 39).
  { name: 'demo-dispatches', run: seedDemoDispatches },
  // 后备干部库 (issue 39 §5): reserve cadres of three kinds, one since appointed, one adjusted out.
  { name: 'demo-reserve', run: seedDemoReserve },
  // 干部请假, 干部兼职, 个人有关事项报告, 考察对象 (issue 39 §5): the supervision records, after the appointments.
  { name: 'demo-supervision', run: (ctx) => seedDemoSupervision(ctx) },
  // Party dues of the last 13 months, last: every member the other areas added (预备党员, transfers in)
  // has a standard, so the next batch can be configured. The demo secretary and member are in their branch.
  { name: 'demo-dues', run: seedDemoDues },
  // Fill-in forms: one published with its organisations in every collection state (a table of rows), a draft, a stopped one (issue 29).
  { name: 'demo-forms', run: async (ctx) => ctx.log.info(await seedDemoForms(ctx), 'demo forms seeded') },
  // Talks, points, assistance, rewards, duty reports, an assessment, an appraisal round and weak branches (issue 27).
  { name: 'demo-member-life', run: seedMemberLife },
  // 党籍管理 (issue 41): discipline, members who left, 停止党籍, members abroad and graduates kept, with the to-dos.
  {
    name: 'demo-lifecycle',
    async run(ctx) {
      ctx.log.info(await seedLifecycle(ctx), 'demo lifecycle seeded');
      if (ctx.app) for (const module of ['member-discipline', 'member-quit', 'member-suspend', 'member-abroad', 'member-stay']) await seedWorkflowTodos(ctx.app, module);
    },
  },
  // 毕业生批量转出 (issue 41 §3): the next graduation's student members of the demo college, in a draft batch.
  { name: 'demo-graduates', run: async (ctx) => ctx.log.info(await seedGraduates(ctx), 'demo graduates seeded') },
  // 工作管理 (issue 29): tasks given to the branches with their reports, and the other reports they upload.
  { name: 'demo-work', run: async (ctx) => ctx.log.info(await seedWork(ctx, { school: ctx.config.school }), 'demo work seeded') },
  // 模板管理 (issue 29): a 证明信, a 介绍信, an xlsx information sheet and a 结业证书, built in code.
  { name: 'demo-templates', run: async (ctx) => ctx.log.info(await seedTemplates(ctx), 'demo templates seeded') },
  // Notices an administrator published, for the workbench (issue 33.4).
  { name: 'demo-notices', run: async ({ database, log }) => log.info({ notices: await seedDemoNotices(database) }, 'demo notices seeded') },
  // Data sources, saved queries and two snapshots (last year's end, this month), after every area's data (issue 30).
  { name: 'demo-statistics', run: seedStatistics },
  // The mobile terminal (issue 31): a meeting today to check in to, a change request waiting for the branch.
  { name: 'demo-mobile', run: seedDemoMobile },
];
