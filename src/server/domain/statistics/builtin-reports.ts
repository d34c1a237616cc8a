/**
 * The built-in reports: the tables of the yearly party statistics (党内统计年报) asked for most. Each is a
 * definition over a data source (sources.ts) of the same shape as a designed report (designs.ts), run by
 * reports.ts; none holds SQL of its own.
 */
import type { QueryGroup } from '../../../shared/statistics.js';
import type { ReportDefinition } from './reports.js';

const count = { key: 'count', title: '人数', agg: 'count' as const };

/** The year asked for, as a date range condition on a field. */
const inYear = (field: string): QueryGroup => ({ and: [{ field, op: 'between', value: ['{year}-01-01', '{year}-12-31'] }] });

const byDict = (id: string, title: string, field: string): ReportDefinition => ({
  id, title, description: `党员按${title.replace(/^党员/, '').replace(/统计$/, '')}统计（可按党组织、党籍状态等筛选）`, source: 'members', rows: { kind: 'dict', field }, measures: [count],
});

/** 党费收缴 (source `dues`, the year's batches as 党费统计 counts them): items and amounts, amounts in yuan. */
function duesCollected(id: string, title: string, description: string, rows: ReportDefinition['rows']): ReportDefinition {
  return {
    id, title, description, source: 'dues', rows, hideEmpty: true,
    measures: [
      { key: 'members', title: '应缴人次', agg: 'sum', field: 'members' },
      { key: 'paidMembers', title: '已缴人次', agg: 'sum', field: 'paidMembers' },
      { key: 'due', title: '应交金额（元）', agg: 'sum', field: 'due', cents: true },
      { key: 'paid', title: '实交金额（元）', agg: 'sum', field: 'paid', cents: true },
    ],
  };
}

/**
 * 党员增减变化 (issue 41 §5, source `member-change`): 年初数 + 增加 − 减少 = 年末数 per organisation, the
 * reasons beside; 差额 is 0 where the table adds up and names the rows that do not.
 */
function memberChange(id: string, title: string, rows: ReportDefinition['rows']): ReportDefinition {
  const sum = (key: string, t: string) => ({ key, title: t, agg: 'sum' as const, field: key });
  return {
    id, title, source: 'member-change', rows, hideEmpty: true,
    description: '所选年度的党员增减：年初数＋增加（发展、转入、恢复党籍）－减少（死亡、出党、转出、停止党籍）＝年末数，按各记录的日期统计；差额不为0的行即不平衡之处',
    measures: [
      sum('start', '年初数'), sum('in', '增加'), sum('inDevelop', '其中：发展'), sum('inTransfer', '其中：转入'), sum('inRestore', '其中：恢复党籍'),
      sum('out', '减少'), sum('outDeath', '其中：死亡'), sum('outQuit', '其中：出党'), sum('outTransfer', '其中：转出'), sum('outStop', '其中：停止党籍'),
      sum('end', '年末数'), sum('diff', '差额'),
    ],
  };
}

export const BUILTIN_REPORTS: ReportDefinition[] = [
  memberChange('member-change', '党员增减变化情况', { kind: 'org', field: 'orgId', title: '党组织', depth: 1 }),
  byDict('members-by-gender', '党员性别统计', 'gender'),
  byDict('members-by-ethnicity', '党员民族统计', 'ethnicity'),
  { id: 'members-by-age', title: '党员年龄统计', description: '党员按年龄段统计（按出生日期计算到今天）', source: 'members', rows: { kind: 'band', field: 'birthDate', title: '年龄段', bands: 'age' }, measures: [count] },
  byDict('members-by-education', '党员学历统计', 'education'),
  {
    id: 'members-by-party-age', title: '党员党龄统计', description: '党员按党龄段统计（党龄自转正之日算起；预备党员单列）', source: 'members',
    rows: { kind: 'band', field: 'fullDate', title: '党龄段', bands: 'partyAge', unknownLabel: '预备党员/未填写' }, measures: [count],
  },
  byDict('members-by-category', '党员人员类别统计', 'category'),
  {
    id: 'development-in-year', title: '年度发展党员情况', description: '所选年度内递交申请书、确定为积极分子、确定为发展对象、接收为预备党员和转为正式党员的人数，按二级党组织统计',
    source: 'development', rows: { kind: 'org', field: 'orgId', title: '党组织', depth: 1 }, hideEmpty: true,
    measures: [
      { key: 'applicants', title: '递交入党申请书', agg: 'count', where: inYear('applyDate') },
      { key: 'activists', title: '确定为积极分子', agg: 'count', where: inYear('activistDate') },
      { key: 'targets', title: '确定为发展对象', agg: 'count', where: inYear('targetDate') },
      { key: 'admitted', title: '接收为预备党员', agg: 'count', where: inYear('admitDate') },
      { key: 'full', title: '转为正式党员', agg: 'count', where: inYear('fullDate') },
    ],
  },
  {
    id: 'members-by-org', title: '党员按党组织统计', description: '各二级党组织的党员人数（正式党员、预备党员及合计）', source: 'members',
    rows: { kind: 'org', field: 'orgId', title: '党组织', depth: 1 }, columns: { kind: 'dict', field: 'memberType' }, measures: [count],
  },
  duesCollected('dues-collected', '党费收缴统计（按党组织）', '所选年度各二级党组织的党费收缴情况：应缴与已缴人次、应交与实交金额（与党费统计的年度报表一致）', { kind: 'org', field: 'orgId', title: '党组织', depth: 1 }),
  duesCollected('dues-collected-by-branch', '党费收缴统计（按党支部）', '所选年度各党支部的党费收缴情况：应缴与已缴人次、应交与实交金额', { kind: 'org', field: 'orgId', title: '党支部', depth: 2 }),
  duesCollected('dues-collected-by-month', '党费收缴统计（按月）', '所选年度各月（收缴批次的首月）的党费收缴情况：应缴与已缴人次、应交与实交金额', { kind: 'dict', field: 'month' }),
  { id: 'orgs-by-type', title: '党组织类别统计', description: '党组织按类别（党委、党总支、党支部等）统计', source: 'organisations', rows: { kind: 'dict', field: 'type' }, measures: [{ key: 'count', title: '个数', agg: 'count' }] },
];

export function builtinReport(id: string): ReportDefinition | undefined {
  return BUILTIN_REPORTS.find((r) => r.id === id);
}
