import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { ConstantLayoutRoute } from '../core/layout/layout-pages';

type Page = LazyExoticComponent<ComponentType<{ title?: string }>>;

/**
 * Pages inside the layout that are not generated from a module schema: constant routes of spec §2 and
 * the `core:<name>` components of the server menu. Each loads on demand (one chunk per page).
 */
export const corePages: Record<string, Page> = {
  dashboard: lazy(() => import('./dashboard/DashboardPage')),
  'user-center': lazy(() => import('./user-center/UserCenterPage')),
  msginfo: lazy(() => import('./msginfo/MsgInfoPage')),
  'pschool-study-center': lazy(() => import('./pschool/StudyCenterPage')),
  'pschool-video': lazy(() => import('./pschool/VideoPage')),
  'pschool-doc': lazy(() => import('./pschool/DocPage')),
  'pschool-home': lazy(() => import('./pschool/HomePage')),
  'pschool-training-center': lazy(() => import('./pschool/TrainingCenterPage')),
  'pschool-online-exam': lazy(() => import('./pschool/ExamCenterPage')),
  'pschool-survey': lazy(() => import('./pschool/SurveyPage')),
  'pschool-certificate': lazy(() => import('./pschool/CertificatePage')),
  'pschool-class': lazy(() => import('./pschool/ClassAdminPage')),
  'pschool-exam-manage': lazy(() => import('./pschool/ExamManagePage')),
  'pschool-questionnaire': lazy(() => import('./pschool/QuestionnaireAdminPage')),
  'pschool-seating': lazy(() => import('./pschool/SeatingPage')),
  redirect: lazy(() => import('./redirect/RedirectPage')),
  users: lazy(() => import('./system/users/UsersPage')),
  roles: lazy(() => import('./system/roles/RolesPage')),
  online: lazy(() => import('./system/online/OnlinePage')),
  'sms-outbox': lazy(() => import('./system/sms-outbox/SmsOutboxPage')),
  dicts: lazy(() => import('./system/dicts/DictsPage')),
  sysconfig: lazy(() => import('./system/sysconfig/SysConfigPage')),
  menus: lazy(() => import('./system/menus/MenusPage')),
  'member-analysis': lazy(() => import('./member/MemberAnalysisPage')),
  'member-roster': lazy(() => import('./member/MemberRosterPage')),
  'org-trail': lazy(() => import('./member/OrgTrailPage')),
  dues: lazy(() => import('./dues/DuesPage')),
  'dues-batch': lazy(() => import('./dues/BatchPage')),
  'dues-onsite': lazy(() => import('./dues/OnsitePage')),
  'dues-report': lazy(() => import('./dues/ReportPage')),
  'dues-my': lazy(() => import('./dues/MyDuesPage')),
  'transfer-lost-contact': lazy(() => import('./transfer/LostContactPage')),
  'transfer-stats': lazy(() => import('./transfer/TransferStatsPage')),
  'transfer-letter': lazy(() => import('./transfer/LetterPrintPage')),
  'development-process': lazy(() => import('./development/DevelopmentProcessPage')),
  'development-record': lazy(() => import('./development/DevelopmentRecordPage')),
  reminders: lazy(() => import('./reminders/RemindersPage')),
  'service-query': lazy(() => import('./statistics/QueryPage')),
  'stat-report': lazy(() => import('./statistics/ReportPage')),
  'stat-snapshot': lazy(() => import('./statistics/SnapshotPage')),
  'stat-bigdata': lazy(() => import('./statistics/BigDataPage')),
  'member-talk': lazy(() => import('./evaluation/MemberTalkPage')),
  'member-points': lazy(() => import('./evaluation/MemberPointsPage')),
  'cadre-info': lazy(() => import('./cadre/CadreInfoPage')),
  'cadre-profile': lazy(() => import('./cadre/CadreProfilePage')),
  'cadre-team': lazy(() => import('./cadre/TeamPage')),
  'cadre-assess': lazy(() => import('./cadre/AssessPage')),
  'cadre-structure': lazy(() => import('./cadre/StructureAnalysisPage')),
  'cadre-performance': lazy(() => import('./cadre/PerformanceAnalysisPage')),
  'cadre-lrmx': lazy(() => import('./cadre/LrmxPage')),
  'meetings-three-one': lazy(() => import('./meetings/MeetingsPage')),
  'meetings-life': lazy(() => import('./meetings/MeetingsPage').then((m) => ({ default: m.LifeMeetingPage }))),
  'meetings-democratic': lazy(() => import('./meetings/MeetingsPage').then((m) => ({ default: m.DemocraticPage }))),
  'meetings-theme-day': lazy(() => import('./meetings/ThemeDayPage')),
};

export const PendingPage = lazy(() => import('./pending/PendingPage'));

/** Routes inside the layout that exist for every signed-in user (spec §2 route table). */
export const constantLayoutRoutes: ConstantLayoutRoute[] = [
  { path: '/dashboard', name: 'Dashboard', page: 'dashboard', title: '首页', affix: true, icon: 'HomeOutlined' },
  { path: '/user/center', name: 'UserCenter', page: 'user-center', title: '个人中心', hidden: true, redirect: 'noredirect' },
  { path: '/message/msginfo', name: 'MsgInfo', page: 'msginfo', title: '私信与待办', hidden: true },
  { path: '/redirect/*', page: 'redirect', title: '', hidden: true, noCache: true },
  { path: '/pschool', name: 'Pschool', page: 'pschool-study-center', title: '党校', hidden: true, noCache: true },
  { path: '/pschool/video/view', name: 'PschoolVideo', page: 'pschool-video', title: '视频播放', hidden: true, noCache: true },
  { path: '/pschool/doc/view', name: 'PschoolDoc', page: 'pschool-doc', title: '文档阅读', hidden: true, noCache: true },
  { path: '/pschool/home/page', name: 'PschoolHome', page: 'pschool-home', title: '个人主页', hidden: true, noCache: true },
  { path: '/pschool/party/center', name: 'PschoolTraining', page: 'pschool-training-center', title: '培训中心', hidden: true, noCache: true },
  { path: '/pschool/exam/center', name: 'PschoolExam', page: 'pschool-online-exam', title: '在线考试', hidden: true, noCache: true },
  { path: '/pschool/survey/:token', name: 'PschoolSurvey', page: 'pschool-survey', title: '问卷调查', hidden: true, noCache: true },
  { path: '/pschool/certificate/:id', name: 'PschoolCertificate', page: 'pschool-certificate', title: '结业证书', hidden: true, noCache: true },
  { path: '/transfer/letter/:id', name: 'TransferLetter', page: 'transfer-letter', title: '组织关系介绍信', hidden: true, noCache: true },
  { path: '/cadre/info/profile/:id', name: 'CadreProfile', page: 'cadre-profile', title: '干部信息简表', hidden: true, noCache: true },
  { path: '/cadre/leadership/team/:id', name: 'CadreTeam', page: 'cadre-team', title: '领导班子成员与结构', hidden: true, noCache: true },
  { path: '/cadre/lrmx/:id', name: 'CadreLrmx', page: 'cadre-lrmx', title: '干部任免审批表', hidden: true, noCache: true },
  { path: '/pschool/:navigation', name: 'PschoolNavigation', page: 'pschool-study-center', title: '党校', hidden: true, noCache: true },
];
