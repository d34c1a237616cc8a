/**
 * The answers of the dues API (`/api/dues/...`, src/server/domain/dues), as server and web see them.
 * Money is yuan as text with two decimals ("12.50"); months are "YYYY-MM"; rates 0..1 with 4 decimals.
 */
import type { ImportRowError } from '../module-schema/api.js';
import type { BaseFormula } from './formula.js';
import type { Band, DuesCategory } from './rules.js';

export type Bands = Readonly<Record<'in-service' | 'retired', readonly Band[]>>;
export type PaymentMethod = 'cash' | 'transfer' | 'online';
export type DeferralKind = 'approved' | 'hardship' | 'no-reason';

export const PaymentMethodLabel: Readonly<Record<PaymentMethod, string>> = { cash: '现金', transfer: '转账', online: '在线支付' };
export const DeferralKindLabel: Readonly<Record<DeferralKind, string>> = { approved: '经批准缓交', hardship: '生活困难', 'no-reason': '无正当理由' };

/** `GET /api/dues/calculate`. */
export interface Calculation {
  category: DuesCategory;
  base: string | null;
  due: string;
  rate: string;
  rule: string;
  source: string;
}

/** `GET /api/dues/settings`: the school's base formula and bands as they apply. */
export interface DuesSettings {
  baseFormula: BaseFormula;
  ownFormula: boolean;
  formulaText: string;
  bands: Bands;
  ownBands: boolean;
  rules: { category: DuesCategory; label: string; rules: string[] }[];
  source: string;
  updatedAt: string | null;
}

export interface BranchStandards {
  orgId: number;
  orgName: string;
  members: number;
  withStandard: number;
  monthly: string;
  confirmed: { at: string; by: string; members: number; monthly: string } | null;
  /** Standards changed since the confirmation (it needs confirming again). */
  stale: boolean;
}

export interface WriteCounts {
  created: number;
  updated: number;
  unchanged: number;
}

export interface PayrollResult extends WriteCounts {
  total: number;
  failed: number;
  formulaText: string;
  errors: ImportRowError[];
}

export interface GenerateResult extends WriteCounts {
  missingBase: number;
  missingBaseSample: string[];
}

export interface BatchView {
  id: number;
  title: string;
  firstMonth: string;
  months: string[];
  /** BatchState: 1 not configured, 2 configured, 3 started, 4 closed. */
  state: 1 | 2 | 3 | 4;
  stateLabel: string;
  version: number;
  members: number;
  paidMembers: number;
  deferred: number;
  due: string;
  paid: string;
  rate: number;
  remark: string;
  createdAt: string;
  configuredAt: string | null;
  startedAt: string | null;
  closedAt: string | null;
}

export interface ReportInfo {
  level: number;
  reportedAt: string;
  reportedBy: string;
  paid: string;
  paidMembers: number;
}

/** An organisation's figures with everything under it (the batch dashboard, the reports). */
export interface ProgressNode {
  orgId: number;
  name: string;
  level: 'branch' | 'committee' | 'school' | 'other';
  members: number;
  paidMembers: number;
  unpaidMembers: number;
  deferred: number;
  due: string;
  paid: string;
  rate: number;
  report?: ReportInfo | null;
  /** The caller may take 上报 for this organisation now (set on a batch's progress, not on reports). */
  canReport?: boolean;
  children?: ProgressNode[];
}

/** An entry of a batch's log (workflow_log): a step of the batch's workflow or a record made for an organisation. */
export interface BatchLogEntry {
  id: number;
  /** The step (configure, start, report, close) or record (create, defer, undefer, reverse, adjust, unadjust). */
  action: string;
  title: string;
  fromState: number | null;
  toState: number | null;
  orgId: number | null;
  orgName: string | null | undefined;
  actor: string;
  comment: string;
  /** What the step went through with (members left out for lack of a standard). */
  warnings: string[];
  at: string | null;
}

/** A batch as a step of its workflow answers it (`POST /api/m/dues-batch/{id}/transitions/{step}`). */
export interface BatchStepResult {
  id: number;
  version: number;
  title: string;
  state: number;
  warnings: string[];
}

export type ItemStatus = 'paid' | 'unpaid' | 'deferred' | 'settled';

export interface ItemView {
  id: number;
  batchId: number;
  memberId: number;
  memberName: string;
  orgId: number;
  orgName: string;
  category: string;
  categoryLabel: string;
  base: string | null;
  rate: string;
  standard: string;
  adjust: string;
  due: string;
  paid: string;
  status: ItemStatus;
  statusLabel: string;
  paidAt: string | null;
  paymentId: number | null;
  receiptNo: string | null;
  deferral: { kind: DeferralKind; kindLabel: string; reason: string } | null;
}

/** A member's own item (我的党费). */
export interface MemberItem extends ItemView {
  title: string;
  months: string[];
  state: number;
  canPay: boolean;
  /** A closed month payable now only with a started one (补缴: within six months, or deferred). */
  backPay: boolean;
}

export interface AdjustmentView {
  id: number;
  batchId: number;
  itemId: number;
  memberId: number;
  memberName: string;
  kind: 'arrear' | 'correction';
  kindLabel: string;
  sourceMonth: string | null;
  amount: string;
  reason: string;
  createdBy: string;
  createdAt: string;
}

export interface ReceiptLine {
  itemId: number;
  batchId: number;
  batchTitle: string;
  months: string[];
  monthsLabel: string;
  due: string;
  amount: string;
}

export interface Receipt {
  id: number;
  receiptNo: string;
  /** 1 payment, 2 reversal. */
  kind: 1 | 2;
  kindLabel: string;
  memberId: number;
  memberName: string;
  orgId: number;
  orgName: string;
  method: PaymentMethod;
  methodLabel: string;
  amount: string;
  /** 1000 yuan or more in one payment: goes to the Centre in full (中组发〔2008〕3号 第十条). */
  large: boolean;
  payer: string;
  collector: string;
  reason: string;
  createdAt: string;
  lines: ReceiptLine[];
  /**
   * What the receipt prints, one line each: every month's own dues, every month paid back (补缴) with
   * them, and a voluntary extra (自愿多交) on its own line; negative on a reversal.
   */
  entries: { label: string; amount: string }[];
  reverses: { id: number; receiptNo: string } | null;
  reversedBy: { id: number; receiptNo: string; reason: string; createdAt: string } | null;
  /** A payment not reversed whose batches are all still started (closed batches never change). */
  reversible: boolean;
}

export interface OpenMonth {
  itemId: number;
  batchId: number;
  title: string;
  months: string[];
  due: string;
  deferred: boolean;
}

export interface OnsiteMember {
  memberId: number;
  name: string;
  orgId: number;
  orgName: string;
  open: OpenMonth[];
  backPay: OpenMonth[];
  /** Closed months unpaid that cannot be paid back (too long, no proper reason): settled by an exemption (免交) if at all. */
  overdue: OpenMonth[];
  paidUpTo: string | null;
}

export interface DuesStatus {
  memberId: number;
  /** The last month of the unbroken run of paid months from the first due month; null when that first month is unpaid or nothing is due yet. */
  paidUpTo: string | null;
  /** Due months neither paid nor paid back, oldest first ("YYYY-MM"). */
  unpaidMonths: string[];
  owed: string;
  hasUnpaid: boolean;
}

export interface LapseCandidate {
  memberId: number;
  name: string;
  orgId: number;
  orgName: string;
  /** The six unpaid months, oldest first. */
  months: string[];
  /** Everything the member owes now. */
  owed: string;
  paidUpTo: string | null;
}

export interface MonthFigures {
  batchId: number;
  title: string;
  months: string[];
  state: number;
  stateLabel: string;
  members: number;
  paidMembers: number;
  due: string;
  paid: string;
  rate: number;
}

export interface YearReport {
  year: number;
  months: MonthFigures[];
  totals: { items: number; paidItems: number; due: string; paid: string; rate: number };
  orgs: ProgressNode[];
}

export interface ArrearsRow {
  memberId: number;
  name: string;
  orgId: number;
  orgName: string;
  months: string[];
  owed: string;
  deferred: number;
}

export interface OrderView {
  id: number;
  memberId: number;
  itemIds: number[];
  amount: string;
  provider: { id: string; name: string };
  payUrl: string | null;
  /** 1 pending, 2 paid, 3 closed. */
  status: number;
  statusLabel: string;
  message: string;
  receipt: Receipt | null;
}

/** Online payment as a school set it (dues settings): off unless an administrator chose a provider. */
export interface OnlinePayment {
  provider: string | null;
  providerName: string;
  /** The largest single online payment (yuan). */
  maxAmount: string;
  /** The providers registered on this server, to choose from. */
  providers: { id: string; name: string }[];
}

export interface MyDues {
  online: OnlinePayment;
  member: { id: number; name: string; orgName: string } | null;
  standard: { year: number; category: string; categoryLabel: string; base: string | null; rate: string; amount: string; rule: string } | null;
  formulaText: string;
  rules: { category: string; label: string; rules: string[] }[];
  source: string;
  status: DuesStatus | null;
  items: MemberItem[];
  receipts: Receipt[];
}

export interface Page<T> {
  content: T[];
  totalElements: number;
}
