/**
 * Wire shapes of the statistics area (docs/statistics.md): the query language of 综合查询, report
 * definitions and answers, snapshots and background jobs. Shared by the server and the pages.
 */

/** Operators of a query condition; the server maps each to a bound SQL condition (never SQL text). */
export const QUERY_OPS = ['eq', 'ne', 'in', 'notIn', 'like', 'gt', 'gte', 'lt', 'lte', 'between', 'isNull', 'notNull', 'subtree'] as const;
export type QueryOp = (typeof QUERY_OPS)[number];

export const QUERY_OP_LABELS: Record<QueryOp, string> = {
  eq: '等于', ne: '不等于', in: '属于', notIn: '不属于', like: '包含', gt: '大于', gte: '不小于', lt: '小于', lte: '不大于',
  between: '介于', isNull: '为空', notNull: '不为空', subtree: '属于组织（含下级）',
};

/** One condition: a field of the module, or a reference path through its references (`orgId.parentId`, `org.type`). */
export interface QueryCondition {
  field: string;
  op: QueryOp;
  value?: unknown;
}

export type QueryGroup = { and: QueryNode[] } | { or: QueryNode[] };
export type QueryNode = QueryCondition | QueryGroup;

export interface QueryRequest {
  module: string;
  where?: QueryGroup;
  /** Fields or reference paths to show; absent: the module's list columns. */
  columns?: string[];
  /** `field,asc|desc` or a list of them. */
  sort?: string | string[];
  /** Run over this snapshot's records of the module instead of live data. */
  snapshot?: number;
  page?: number;
  size?: number;
}

export interface SavedQuery {
  id: number;
  title: string;
  module: string;
  definition: QueryRequest;
  shared: boolean;
  ownerId: number | null;
  ownerName: string;
  mine: boolean;
}

/** Export type (spec §4): auto 1, custom 2. */
export const ExportType = { AUTO: 1, CUSTOM: 2 } as const;
export { EXPORT_STATE_LABELS, ExportState, type Job } from './jobs.js';

/** A column of a report answer: the row dimension's label, then one per (column bucket ×) measure. */
export interface ReportColumn {
  key: string;
  title: string;
  /** 'yuan': an amount of money in yuan (shown with two decimals). */
  unit?: 'yuan';
}

/** One row of a report: the dimension's bucket and a figure per column key; `where` per column key drills down. */
export interface ReportRow {
  key: string;
  label: string;
  /** A subtotal row (an organisation's over the rows beneath it, which follow it). */
  subtotal?: boolean;
  values: Record<string, number>;
  drill: Record<string, QueryGroup>;
}

export interface ReportResult {
  id: string;
  title: string;
  module: string;
  columns: ReportColumn[];
  rows: ReportRow[];
  totals: Record<string, number>;
  totalsDrill: Record<string, QueryGroup>;
  /** The snapshot the figures come from (null: live data). */
  snapshot: { id: number; title: string; takenAt: string } | null;
  /** The chart the definition asks for. */
  chart: ReportChart;
  /** Parameters the report understands (year, filter). */
  params: Record<string, unknown>;
}

export interface ReportSummary {
  id: string;
  title: string;
  builtin: boolean;
  source: string;
  description: string;
  /** A designed report: shared with others, the caller's own, its owner's name. */
  shared?: boolean;
  mine?: boolean;
  ownerName?: string;
}

/** [key, label, lower bound in years (inclusive), upper bound (exclusive)]. */
export type Band = [string, string, number, number];

/**
 * The most measures a report has: 党员增减变化 (issue 41 §5), a table the school sends upwards, has 12 columns
 * (年初数, 增加 and its three reasons, 减少 and its four, 年末数, 差额), and a built-in passes the designer's checks.
 */
export const MAX_REPORT_MEASURES = 12;

/** Named band sets a designed report may use instead of its own limits. */
export const BAND_PRESETS = { age: '年龄段', partyAge: '党龄段' } as const;
export type BandPreset = keyof typeof BAND_PRESETS;

/**
 * A dimension of a report (rows or columns): a dictionary or labelled field (`dict`), years since a date
 * in bands (`band`: age from the birth date, party age from the date made full), an organisation level
 * (`org`: depth 1 committees, 2 branches; `subtotals` adds a row per committee over its branches),
 * the calendar year or month of a date.
 */
export type ReportDimension =
  | { kind: 'dict'; field: string; title?: string }
  | { kind: 'band'; field: string; title?: string; bands: Band[] | BandPreset; unknownLabel?: string }
  | { kind: 'org'; field: string; title?: string; depth: number; subtotals?: boolean }
  | { kind: 'year' | 'month'; field: string; title?: string };

export const DIMENSION_KINDS: Record<ReportDimension['kind'], string> = { dict: '字典分类', band: '年限分段', org: '组织层级', year: '年份', month: '月份' };

export interface ReportMeasure {
  key: string;
  title: string;
  agg: 'count' | 'sum';
  /** The summed field (agg sum). */
  field?: string;
  /** The summed field holds whole cents (分): the figure is answered in yuan (元). */
  cents?: boolean;
  /** The measure's own condition; a value `{year}` in it stands for the report's year. */
  where?: QueryGroup;
}

export const REPORT_CHARTS = { auto: '自动', bar: '柱状图', pie: '饼图' } as const;
export type ReportChart = keyof typeof REPORT_CHARTS;

/**
 * A report definition: built-in and designed reports have this one shape and run on one engine
 * (docs/statistics.md). It names a data source, never a table. In any `where`, a string value's
 * `{year}` is replaced by the year asked for (`{year}-01-01`).
 */
export interface ReportSpec {
  title: string;
  description?: string;
  source: string;
  rows: ReportDimension;
  columns?: ReportDimension;
  measures: ReportMeasure[];
  /** A condition on every record counted. */
  where?: QueryGroup;
  /** Drop rows whose figures are all zero. */
  hideEmpty?: boolean;
  chart?: ReportChart;
}

/** A report's definition as `GET /api/reports/{id}/definition` answers it. */
export interface ReportDefinitionAnswer {
  id: string;
  builtin: boolean;
  shared: boolean;
  mine: boolean;
  definition: ReportSpec;
}

export interface Snapshot {
  id: number;
  title: string;
  modules: string[];
  takenAt: string;
  state: number;
  counts: Record<string, number>;
  /** Rows this snapshot stored itself (versions new in it). */
  stored: Record<string, number>;
  createdByName: string;
  /** What the snapshot holds when it is not simply every record as it was (empty: nothing to say). */
  note: string;
}

export interface SnapshotDiff {
  module: string;
  added: number;
  removed: number;
  changed: number;
  kind: 'added' | 'removed' | 'changed';
  content: { id: number; name: string; fields: { field: string; title: string; before: unknown; after: unknown }[] }[];
  totalElements: number;
}
