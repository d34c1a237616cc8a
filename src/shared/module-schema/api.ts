/**
 * Shapes of the generic module API (`/api/m/{module}/...`) that the server answers and the web renderer
 * reads: one declaration for both sides.
 */

import type { Page } from '../paging.js';

/** A record as the API answers it: field values, `<field>Label` / `<field>Name` decorations, system fields. */
export type ModuleRecord = Record<string, unknown> & { id: number; version: number };

export type RecordPage = Page<ModuleRecord>;

/** One field-level change of a change record; labels are filled for dictionary and reference fields. */
export interface FieldChange {
  field: string;
  title: string;
  before: unknown;
  after: unknown;
  beforeLabel?: string | null;
  afterLabel?: string | null;
}

/** A change record of `GET /api/m/{module}/{id}/trail` (type ChangeRecordType, origin ChangeRecordOrigin). */
export interface ChangeRecord {
  id: number;
  module: string;
  moduleCode: number | null;
  recordId: number;
  type: number;
  typeLabel: string;
  origin: number;
  originLabel: string;
  changes: FieldChange[];
  userId: number | null;
  username: string;
  /** ISO date-time. */
  at: string;
  /** The workflow record whose step made this change (a transfer moving a member), else null. */
  source?: { module: string; title: string; recordId: number } | null;
}

/** `partial` imports the good rows; `all` imports nothing unless every row is good. */
export type ImportMode = 'partial' | 'all';

/** A bad cell of an import: sheet row number, column title, message; `sheet` names a child module's sheet. */
export interface ImportRowError {
  row: number;
  column: string;
  message: string;
  sheet?: string;
}

/** An import answered at once (`POST /api/users/import`): rows read, rows written, the bad rows. */
export interface ImportResult {
  total: number;
  imported: number;
  errors: ImportRowError[];
}

/** `GET /api/m/{module}/import/{jobId}`: an import job's progress and outcome. */
export interface ImportStatus {
  id: number;
  /** TaskStatus: 1 preparing, 2 running, 3 success, 4 error. */
  status: number;
  statusLabel: string;
  mode: ImportMode;
  fileName: string;
  total: number;
  processed: number;
  imported: number;
  errors: ImportRowError[];
  message: string;
  reportUrl: string | null;
}

/** A deleted record as `GET /api/m/{module}/deleted` lists it: who deleted it when, and its last values. */
export interface DeletedEntry {
  id: number;
  recordId: number;
  /** The record as it was, decorated like a list row (labels and names). */
  record: Record<string, unknown>;
  /** Records deleted with it (its children), which come back with it. */
  withIt: number;
  username: string;
  at: string;
  restoredAt: string | null;
  restoredBy: string | null;
}
