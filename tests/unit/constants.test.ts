import { describe, expect, it } from 'vitest';
import * as C from '../../src/shared/constants.js';

/** Every value of an enumeration has a non-empty Chinese label, and the label map has no extra keys. */
function expectLabels(values: Record<string, number>, labels: Record<number, string>): void {
  expect(Object.keys(labels).map(Number).sort((a, b) => a - b)).toEqual(Object.values(values).sort((a, b) => a - b));
  for (const label of Object.values(labels)) expect(label).toMatch(/[\u4e00-\u9fa5]/);
}

describe('§4 enumerated statuses', () => {
  it('[S4.N1] task or upload status is PREPARE 1, START 2, SUCCESS 3, ERROR 4', () => {
    expect(C.TaskStatus).toEqual({ PREPARE: 1, START: 2, SUCCESS: 3, ERROR: 4 });
    expect(C.UploadStatus).toEqual({ PREPARE: 1, START: 2, SUCCESS: 3, ERROR: 4 });
    expectLabels(C.TaskStatus, C.TaskStatusLabel);
  });

  it('[S4.N2] data-collection status is NO_START 0, STASHED_END 1, COLLECT_END 2, IMPORT_END 3', () => {
    expect(C.CollectStatus).toEqual({ NO_START: 0, STASHED_END: 1, COLLECT_END: 2, IMPORT_END: 3 });
    expectLabels(C.CollectStatus, C.CollectStatusLabel);
  });

  it('[S4.N3] cadre-reminder state is NO_START 1, START 2, FINISH 3', () => {
    expect(C.CadreRemindState).toEqual({ NO_START: 1, START: 2, FINISH: 3 });
    expectLabels(C.CadreRemindState, C.CadreRemindStateLabel);
  });

  it('[S4.N4] reminder enabled is OFF 0, ON 1', () => {
    expect(C.RemindEnabled).toEqual({ OFF: 0, ON: 1 });
    expectLabels(C.RemindEnabled, C.RemindEnabledLabel);
  });

  it('[S4.N5] task state is begin 1, success 2, fail 3', () => {
    expect(C.TaskState).toEqual({ BEGIN: 1, SUCCESS: 2, FAIL: 3 });
    expectLabels(C.TaskState, C.TaskStateLabel);
  });

  it('[S4.N6] batch state is not configured 1, configured 2, started 3, closed 4', () => {
    expect(C.BatchState).toEqual({ NOT_CONFIGURED: 1, CONFIGURED: 2, STARTED: 3, CLOSED: 4 });
    expect(C.BatchStateLabel).toEqual({ 1: '未配置', 2: '已配置', 3: '已开始', 4: '已关闭' });
  });

  it('[S4.N7] export state is start 1, finish 2, error 3', () => {
    expect(C.ExportState).toEqual({ START: 1, FINISH: 2, ERROR: 3 });
    expectLabels(C.ExportState, C.ExportStateLabel);
  });

  it('[S4.N8] share state is sharing 1, stopped 2', () => {
    expect(C.ShareState).toEqual({ SHARING: 1, STOPPED: 2 });
    expectLabels(C.ShareState, C.ShareStateLabel);
  });
});

describe('§9 enumerations', () => {
  it('[S9.K1] terminal type is PC 1, MOBILE 2', () => {
    expect(C.TerminalType).toEqual({ PC: 1, MOBILE: 2 });
    expectLabels(C.TerminalType, C.TerminalTypeLabel);
  });

  it('[S9.K2] on/off is OFF 0, ON 1', () => {
    expect(C.OnOff).toEqual({ OFF: 0, ON: 1 });
    expectLabels(C.OnOff, C.OnOffLabel);
  });

  it('[S9.K3] key-device status is OUT 0, IN 1', () => {
    expect(C.KeyDeviceStatus).toEqual({ OUT: 0, IN: 1 });
    expectLabels(C.KeyDeviceStatus, C.KeyDeviceStatusLabel);
  });

  it('[S9.K4] the system config keys are exactly passwordReg, passwordRegTip, initPassword, videoRecordTime', () => {
    expect(C.SYS_CONFIG_KEYS).toEqual(['passwordReg', 'passwordRegTip', 'initPassword', 'videoRecordTime']);
    for (const [name, value] of Object.entries(C.SysConfigKey)) expect(value).toBe(name);
  });

  it('[S9.K5] party-school batch type (dxPc) is APPLY 1, ACTIVE 2, DEVELOP 3, PREPARE 4', () => {
    expect(C.DxPcType).toEqual({ APPLY: 1, ACTIVE: 2, DEVELOP: 3, PREPARE: 4 });
    expect(C.DxPcTypeLabel).toEqual({ 1: '入党申请人', 2: '入党积极分子', 3: '发展对象', 4: '预备党员' });
  });

  it('[S9.K6] course evaluation type is OFFLINE 1, ONLINE 2', () => {
    expect(C.CourseEvaluationType).toEqual({ OFFLINE: 1, ONLINE: 2 });
    expectLabels(C.CourseEvaluationType, C.CourseEvaluationTypeLabel);
  });

  it('[S9.K7] chapter/node type is CHAPTER 1, NODE 2', () => {
    expect(C.ChapterType).toEqual({ CHAPTER: 1, NODE: 2 });
    expectLabels(C.ChapterType, C.ChapterTypeLabel);
  });

  it('[S9.K8] question type starts at 0: single 0, multiple 1, judge 2, fill 3, short answer 4', () => {
    expect(C.QuestionType).toEqual({ SINGLE: 0, MULTIPLE: 1, JUDGE: 2, FILL: 3, SHORT_ANSWER: 4 });
    expect(C.QuestionTypeLabel).toEqual({ 0: '单选题', 1: '多选题', 2: '判断题', 3: '填空题', 4: '简答题' });
  });

  it('[S9.K9] cadre information type has the nine values 1..9 in the spec order', () => {
    expect(C.CadreInfoType).toEqual({
      BASIC_INFO: 1, RECORD: 2, POSITION_TITLE: 3, EDUCATION_TRAINING: 4, FAMILY_MEMBER: 5,
      STUDY_EXPERIENCE: 6, BASIC_ASSESSMENT: 7, ASSESSMENT_SITUATION: 8, WORK_RECORD: 9,
    });
    expect(Object.keys(C.CadreInfoType)).toHaveLength(9);
    expect(C.CadreInfoTypeLabel[C.CadreInfoType.FAMILY_MEMBER]).toBe('家庭成员');
    expectLabels(C.CadreInfoType, C.CadreInfoTypeLabel);
  });

  it('[S9.K10] join type is system import 1, user import 2', () => {
    expect(C.JoinType).toEqual({ SYSTEM_IMPORT: 1, USER_IMPORT: 2 });
    expect(C.JoinTypeLabel).toEqual({ 1: '系统导入', 2: '用户导入' });
  });

  it('[S9.K11] join reason is class full year 1, job full year 2, part-time job 3', () => {
    expect(C.JoinReason).toEqual({ CLASS_FULL_YEAR: 1, JOB_FULL_YEAR: 2, PART_TIME_JOB: 3 });
    expectLabels(C.JoinReason, C.JoinReasonLabel);
  });

  it('[S9.K12] export type is auto 1, custom 2', () => {
    expect(C.ExportType).toEqual({ AUTO: 1, CUSTOM: 2 });
    expectLabels(C.ExportType, C.ExportTypeLabel);
  });

  it('[S9.K13] channel is photo 1, upload 2', () => {
    expect(C.Channel).toEqual({ PHOTO: 1, UPLOAD: 2 });
    expect(C.ChannelLabel).toEqual({ 1: '拍照', 2: '上传' });
  });

  it('[S9.K14] share type is custom 1, role 2, party branch 3', () => {
    expect(C.ShareType).toEqual({ CUSTOM: 1, ROLE: 2, PARTY_BRANCH: 3 });
    expectLabels(C.ShareType, C.ShareTypeLabel);
  });

  it('[S9.K15] reminder types are the six values 1..6 in the spec order', () => {
    expect(C.RemindType).toEqual({
      TERM_EXPIRY: 1, AGE_EXPIRY: 2, PROBATION_EXPIRY: 3, SECONDMENT_EXPIRY: 4, RETIREMENT_EXPIRY: 5, CERTIFICATE_NOT_RETURNED: 6,
    });
    expect(C.RemindTypeLabel).toEqual({
      1: '任期到期', 2: '年龄到期', 3: '试用期到期', 4: '挂职到期', 5: '干部退休到期', 6: '证件未归还',
    });
  });

  it('[S9.K16] change-record type is ADD 1, UPDATE 2, labelled 新增/修改', () => {
    expect(C.ChangeRecordType).toEqual({ ADD: 1, UPDATE: 2 });
    expect(C.ChangeRecordTypeLabel).toEqual({ 1: '新增', 2: '修改' });
  });

  it('[S9.K17] change-record origin is SYSTEM_IMPORT 1 … USER_RESTORE 5, with its Chinese labels', () => {
    expect(C.ChangeRecordOrigin).toEqual({
      SYSTEM_IMPORT: 1, USER_CREATE: 2, USER_UPDATE: 3, SYSTEM_IMPORT_UPDATE: 4, USER_RESTORE: 5,
    });
    expect(C.ChangeRecordOriginLabel).toEqual({ 1: '系统导入', 2: '用户新增', 3: '用户修改', 4: '系统导入更新', 5: '用户恢复' });
  });

  it('[S9.K18] change-record module is GB_JBXX 1 and GB_MANAGE_DEPT 50 (not 2)', () => {
    expect(C.ChangeRecordModule).toEqual({ GB_JBXX: 1, GB_MANAGE_DEPT: 50 });
    expectLabels(C.ChangeRecordModule, C.ChangeRecordModuleLabel);
  });

  it('[S9.K19] task status is PREPARE 1, START 2, SUCCESS 3, ERROR 4', () => {
    expect(C.TaskStatus).toEqual({ PREPARE: 1, START: 2, SUCCESS: 3, ERROR: 4 });
  });

  it('[S9.K20] the cadre-base refresh event name is gb_base_refresh', () => {
    expect(C.GB_BASE_REFRESH_EVENT).toBe('gb_base_refresh');
  });

  it('labelOptions turns a label map into value-ordered select options', () => {
    expect(C.labelOptions(C.QuestionTypeLabel)).toEqual([
      { value: 0, label: '单选题' }, { value: 1, label: '多选题' }, { value: 2, label: '判断题' },
      { value: 3, label: '填空题' }, { value: 4, label: '简答题' },
    ]);
    expect(C.labelOptions(C.ChangeRecordModuleLabel).map((o) => o.value)).toEqual([1, 50]);
  });
});

describe('§9 limits and display', () => {
  it('[S9.L1a] the default request timeout is 60000 ms', () => {
    expect(C.REQUEST_TIMEOUT).toBe(60000);
  });

  it('[S9.L1b] the upload and tree-build timeout is 600000 ms', () => {
    expect(C.LONG_REQUEST_TIMEOUT).toBe(600000);
  });

  it('[S9.L2] dictionaries are fetched with page 0 and size 9999', () => {
    expect([C.DICT_PAGE, C.DICT_SIZE]).toEqual([0, 9999]);
  });

  it('[S9.L3a] [S9.L3b] notifications last 5000 ms, the password notice 1500 ms', () => {
    expect(C.NOTIFY_DURATION).toBe(5000);
    expect(C.PASSWORD_NOTICE_DURATION).toBe(1500);
  });

  it('[S9.L4a] the layout is mobile under width 992', () => {
    expect(C.MOBILE_BREAKPOINT).toBe(992);
    expect(C.isMobileWidth(991)).toBe(true);
    expect(C.isMobileWidth(992)).toBe(false);
    expect(C.isMobileWidth(320)).toBe(true);
    expect(C.isMobileWidth(1920)).toBe(false);
  });

  it('[S9.L4b] [S2.L3f] the badge total is reminders plus to-dos, capped at 99', () => {
    expect(C.BADGE_MAX).toBe(99);
    expect(C.badgeTotal(3, 4)).toBe(7);
    expect(C.badgeTotal(60, 50)).toBe(99);
    expect(C.badgeTotal(150, 0)).toBe(99);
    expect(C.badgeTotal(0, 99)).toBe(99);
    expect(C.badgeTotal(0, 0)).toBe(0);
    expect(C.badgeTotal(Number.NaN, 2)).toBe(2);
  });

  it('[S9.L5a] [S9.L5b] [S9.L5c] PIN length 8, at most 5 tries, ukey ports 10096 and 10086', () => {
    expect(C.PIN_MIN_LENGTH).toBe(8);
    expect(C.PIN_MAX_TRIES).toBe(5);
    expect(C.UKEY_PORTS).toEqual([10096, 10086]);
  });

  it('counter timing constants: todo after 10 s then every 180 s, remind after 5 s then every 120 s', () => {
    expect([C.TODO_COUNTER_DELAY, C.TODO_COUNTER_INTERVAL]).toEqual([10000, 180000]);
    expect([C.REMIND_COUNTER_DELAY, C.REMIND_COUNTER_INTERVAL]).toEqual([5000, 120000]);
  });

  it('[S9.L6b] [S9.L6d] sidebar 205, theme #409EFF, size options and default small', () => {
    expect(C.SIDEBAR_WIDTH).toBe(205);
    expect(C.DEFAULT_THEME).toBe('#409EFF');
    expect(C.SIZE_OPTIONS).toEqual(['default', 'medium', 'small', 'mini']);
    expect(C.DEFAULT_SIZE).toBe('small');
  });

  it('password dialog 700 px, inputs 370 px, labels 88 px', () => {
    expect([C.PASSWORD_DIALOG_WIDTH, C.PASSWORD_INPUT_WIDTH, C.PASSWORD_LABEL_WIDTH]).toEqual([700, 370, 88]);
  });

  it('[S9.L8a] token and password cookies expire after 1', () => {
    expect(C.TOKEN_COOKIE_EXPIRES).toBe(1);
    expect(C.PASS_COOKIE_EXPIRES).toBe(1);
  });

  it('the layout cookies are sidebarStatus and size', () => {
    expect(C.SIDEBAR_STATUS_COOKIE).toBe('sidebarStatus');
    expect(C.SIZE_COOKIE).toBe('size');
  });
});
