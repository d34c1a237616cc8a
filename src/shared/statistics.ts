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
/** Export state (spec §4): start 1, finish 2, error 3; also the state of every background job. */
export const ExportState = { START: 1, FINISH: 2, ERROR: 3 } as const;
export const EXPORT_STATE_LABELS: Record<number, string> = { 1: '进行中', 2: '已完成', 3: '失败' };

export interface Job {
  id: number;
  kind: string;
  title: string;
  state: number;
  progress: number;
  total: number;
  message: string;
  result: unknown;
  createdAt: string;
  finishedAt: string | null;
}

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
  /** An organisation bucket with organisations beneath it (subtotal of them). */
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
  /** Parameters the report understands (year, filter). */
  params: Record<string, unknown>;
}

export interface ReportSummary {
  id: string;
  title: string;
  builtin: boolean;
  source: string;
  description: string;
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
