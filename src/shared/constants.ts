/**
 * Enumerations and limits of the spec (sections 4 and 9), shared by server and web.
 * Names and numbers are the spec's; the stored numbers are what the API persists, so never renumber.
 * Label maps give the Chinese text shown to users.
 */

/** The union of an enumeration object's values, e.g. `ValueOf<typeof TaskStatus>` is 1 | 2 | 3 | 4. */
export type ValueOf<T> = T[keyof T];

/** A label for every value of an enumeration; the compiler refuses a missing one. */
type Labels<T extends Record<string, number>> = Readonly<Record<ValueOf<T>, string>>;

/** `[{ value, label }]` in value order, for selects and filters built from a label map. */
export function labelOptions<V extends number>(labels: Readonly<Record<V, string>>): { value: V; label: string }[] {
  return Object.entries(labels)
    .map(([value, label]) => ({ value: Number(value) as V, label: label as string }))
    .sort((a, b) => a.value - b.value);
}

// ---------------------------------------------------------------- §4 enumerated statuses

/** Task or upload status (§4), also the task status of §9. */
export const TaskStatus = { PREPARE: 1, START: 2, SUCCESS: 3, ERROR: 4 } as const;
export const TaskStatusLabel: Labels<typeof TaskStatus> = { 1: '准备中', 2: '进行中', 3: '成功', 4: '失败' };
/** The spec names the same numbers for uploads; one object keeps them from drifting apart. */
export const UploadStatus = TaskStatus;
export const UploadStatusLabel = TaskStatusLabel;

/** Data-collection status; the order is the progression of a collection. */
export const CollectStatus = { NO_START: 0, STASHED_END: 1, COLLECT_END: 2, IMPORT_END: 3 } as const;
export const CollectStatusLabel: Labels<typeof CollectStatus> = { 0: '未开始', 1: '已暂存', 2: '采集完成', 3: '导入完成' };

/** Cadre-reminder state. */
export const CadreRemindState = { NO_START: 1, START: 2, FINISH: 3 } as const;
export const CadreRemindStateLabel: Labels<typeof CadreRemindState> = { 1: '未开始', 2: '进行中', 3: '已完成' };

/** Whether a reminder is enabled. */
export const RemindEnabled = { OFF: 0, ON: 1 } as const;
export const RemindEnabledLabel: Labels<typeof RemindEnabled> = { 0: '停用', 1: '启用' };

/** Task state (begin, success, fail): not the same numbers as TaskStatus. */
export const TaskState = { BEGIN: 1, SUCCESS: 2, FAIL: 3 } as const;
export const TaskStateLabel: Labels<typeof TaskState> = { 1: '开始', 2: '成功', 3: '失败' };

/** Batch state. */
export const BatchState = { NOT_CONFIGURED: 1, CONFIGURED: 2, STARTED: 3, CLOSED: 4 } as const;
export const BatchStateLabel: Labels<typeof BatchState> = { 1: '未配置', 2: '已配置', 3: '已开始', 4: '已关闭' };

/** Export state. */
export const ExportState = { START: 1, FINISH: 2, ERROR: 3 } as const;
export const ExportStateLabel: Labels<typeof ExportState> = { 1: '导出中', 2: '导出完成', 3: '导出失败' };

/** Share state. */
export const ShareState = { SHARING: 1, STOPPED: 2 } as const;
export const ShareStateLabel: Labels<typeof ShareState> = { 1: '共享中', 2: '已停止' };

// ---------------------------------------------------------------- §9 enumerations

export const TerminalType = { PC: 1, MOBILE: 2 } as const;
export const TerminalTypeLabel: Labels<typeof TerminalType> = { 1: '电脑端', 2: '移动端' };

export const OnOff = { OFF: 0, ON: 1 } as const;
export const OnOffLabel: Labels<typeof OnOff> = { 0: '关', 1: '开' };

/** Hardware key (uKey) presence reported by the local certificate service. */
export const KeyDeviceStatus = { OUT: 0, IN: 1 } as const;
export const KeyDeviceStatusLabel: Labels<typeof KeyDeviceStatus> = { 0: '已拔出', 1: '已插入' };

/** The system-configuration keys §9 names; each key is its own value so call sites read naturally. */
export const SysConfigKey = {
  passwordReg: 'passwordReg',
  passwordRegTip: 'passwordRegTip',
  initPassword: 'initPassword',
  videoRecordTime: 'videoRecordTime',
} as const;
export const SYS_CONFIG_KEYS = Object.values(SysConfigKey);

/** Party-school batch type (dxPc): the stage of the people a training batch is for. */
export const DxPcType = { APPLY: 1, ACTIVE: 2, DEVELOP: 3, PREPARE: 4 } as const;
export const DxPcTypeLabel: Labels<typeof DxPcType> = { 1: '入党申请人', 2: '入党积极分子', 3: '发展对象', 4: '预备党员' };

export const CourseEvaluationType = { OFFLINE: 1, ONLINE: 2 } as const;
export const CourseEvaluationTypeLabel: Labels<typeof CourseEvaluationType> = { 1: '线下', 2: '线上' };

export const ChapterType = { CHAPTER: 1, NODE: 2 } as const;
export const ChapterTypeLabel: Labels<typeof ChapterType> = { 1: '章', 2: '节' };

/** Question type; it starts at 0, unlike the other enumerations. */
export const QuestionType = { SINGLE: 0, MULTIPLE: 1, JUDGE: 2, FILL: 3, SHORT_ANSWER: 4 } as const;
export const QuestionTypeLabel: Labels<typeof QuestionType> = { 0: '单选题', 1: '多选题', 2: '判断题', 3: '填空题', 4: '简答题' };

/** Cadre information type: the sections of a cadre's file. */
export const CadreInfoType = {
  BASIC_INFO: 1,
  RECORD: 2,
  POSITION_TITLE: 3,
  EDUCATION_TRAINING: 4,
  FAMILY_MEMBER: 5,
  STUDY_EXPERIENCE: 6,
  BASIC_ASSESSMENT: 7,
  ASSESSMENT_SITUATION: 8,
  WORK_RECORD: 9,
} as const;
export const CadreInfoTypeLabel: Labels<typeof CadreInfoType> = {
  1: '基本信息', 2: '履历信息', 3: '职务职称', 4: '教育培训', 5: '家庭成员',
  6: '学习经历', 7: '基本考核', 8: '考核情况', 9: '工作记录',
};

export const JoinType = { SYSTEM_IMPORT: 1, USER_IMPORT: 2 } as const;
export const JoinTypeLabel: Labels<typeof JoinType> = { 1: '系统导入', 2: '用户导入' };

export const JoinReason = { CLASS_FULL_YEAR: 1, JOB_FULL_YEAR: 2, PART_TIME_JOB: 3 } as const;
export const JoinReasonLabel: Labels<typeof JoinReason> = { 1: '班级满一年', 2: '任职满一年', 3: '兼职' };

export const ExportType = { AUTO: 1, CUSTOM: 2 } as const;
export const ExportTypeLabel: Labels<typeof ExportType> = { 1: '自动导出', 2: '自定义导出' };

/** How a file reached the server. */
export const Channel = { PHOTO: 1, UPLOAD: 2 } as const;
export const ChannelLabel: Labels<typeof Channel> = { 1: '拍照', 2: '上传' };

/** Who a share is addressed to. */
export const ShareType = { CUSTOM: 1, ROLE: 2, PARTY_BRANCH: 3 } as const;
export const ShareTypeLabel: Labels<typeof ShareType> = { 1: '自定义', 2: '按角色', 3: '按党支部' };

/** The six kinds of smart reminder. */
export const RemindType = {
  TERM_EXPIRY: 1,
  AGE_EXPIRY: 2,
  PROBATION_EXPIRY: 3,
  SECONDMENT_EXPIRY: 4,
  RETIREMENT_EXPIRY: 5,
  CERTIFICATE_NOT_RETURNED: 6,
} as const;
export const RemindTypeLabel: Labels<typeof RemindType> = {
  1: '任期到期', 2: '年龄到期', 3: '试用期到期', 4: '挂职到期', 5: '干部退休到期', 6: '证件未归还',
};

/** Change-record (modification trail) type. */
export const ChangeRecordType = { ADD: 1, UPDATE: 2 } as const;
export const ChangeRecordTypeLabel: Labels<typeof ChangeRecordType> = { 1: '新增', 2: '修改' };

/** Where a change came from. */
export const ChangeRecordOrigin = {
  SYSTEM_IMPORT: 1,
  USER_CREATE: 2,
  USER_UPDATE: 3,
  SYSTEM_IMPORT_UPDATE: 4,
  USER_RESTORE: 5,
} as const;
export const ChangeRecordOriginLabel: Labels<typeof ChangeRecordOrigin> = {
  1: '系统导入', 2: '用户新增', 3: '用户修改', 4: '系统导入更新', 5: '用户恢复',
};

/** Module a change record belongs to; 50 is the spec's number, not a typo for 2. */
export const ChangeRecordModule = { GB_JBXX: 1, GB_MANAGE_DEPT: 50 } as const;
export const ChangeRecordModuleLabel: Labels<typeof ChangeRecordModule> = { 1: '干部基本信息', 50: '干部管理部门' };

/** Event that makes the cadre base view reload its data. */
export const GB_BASE_REFRESH_EVENT = 'gb_base_refresh';

// ---------------------------------------------------------------- §9 limits and display

/** Default request timeout, ms. */
export const REQUEST_TIMEOUT = 60_000;
/** Timeout for uploads and the party-organisation tree build, ms. */
export const LONG_REQUEST_TIMEOUT = 600_000;

/** Dictionary fetch paging: everything in one page. */
export const DICT_PAGE = 0;
export const DICT_SIZE = 9999;

/** How long an error notification stays, ms. */
export const NOTIFY_DURATION = 5000;
/** How long the own-password-changed notice stays before logout, ms. */
export const PASSWORD_NOTICE_DURATION = 1500;

/** Widths under this are the mobile layout. */
export const MOBILE_BREAKPOINT = 992;
export function isMobileWidth(width: number): boolean {
  return width < MOBILE_BREAKPOINT;
}

/** Badges never show a number above this. */
export const BADGE_MAX = 99;
/** The user button's badge: unread reminders plus to-dos, capped. Missing or bad counts count as 0. */
export function badgeTotal(remind: number, todo: number): number {
  const count = (n: number) => (Number.isFinite(n) && n > 0 ? Math.floor(n) : 0);
  return Math.min(count(remind) + count(todo), BADGE_MAX);
}

/** Hardware key (uKey) PIN rules and the loopback ports of the local certificate service, tried in order. */
export const PIN_MIN_LENGTH = 8;
export const PIN_MAX_TRIES = 5;
export const UKEY_PORTS = [10096, 10086] as const;

/** Counter polling (§4): first fetch after the delay, then every interval, ms. */
export const TODO_COUNTER_DELAY = 10_000;
export const TODO_COUNTER_INTERVAL = 180_000;
export const REMIND_COUNTER_DELAY = 5000;
export const REMIND_COUNTER_INTERVAL = 120_000;

/** Layout. */
export const SIDEBAR_WIDTH = 205;
export const DEFAULT_THEME = '#409EFF';
export const SIZE_OPTIONS = ['default', 'medium', 'small', 'mini'] as const;
export type UiSize = (typeof SIZE_OPTIONS)[number];
export const DEFAULT_SIZE: UiSize = 'small';

/** Change-password dialog geometry, px. */
export const PASSWORD_DIALOG_WIDTH = 700;
export const PASSWORD_INPUT_WIDTH = 370;
export const PASSWORD_LABEL_WIDTH = 88;

/** Cookie names and expiry (the spec gives 1 without a unit; js-cookie reads it as days). */
export const SIDEBAR_STATUS_COOKIE = 'sidebarStatus';
export const SIZE_COOKIE = 'size';
export const TOKEN_COOKIE_EXPIRES = 1;
export const PASS_COOKIE_EXPIRES = 1;
