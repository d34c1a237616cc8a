import type { FastifyRequest } from 'fastify';
import { HttpError } from '../../errors.js';

/** The learner permission: every learner page and API of the party school. */
export const STUDY = 'pschool:study';

/** Student status values (dictionary DJ_DX_XYZT). */
export const StudentStatus = { PENDING: '1', ADMITTED: '2', REJECTED: '3' } as const;
/** Student source values (dictionary DJ_DX_XYLY). */
export const StudentSource = { IMPORT: '1', PIPELINE: '2', SELF: '3', ADMIN: '4' } as const;
/** Exam session status. */
export const SessionStatus = { ANSWERING: 1, MARKING: 2, MARKED: 3 } as const;
/** Exam compose values (dictionary DJ_DX_ZJFS). */
export const Compose = { HAND: '1', RULE: '2' } as const;

/** A positive integer route parameter or query value, else 400 with the field's Chinese name. */
export function idParam(value: unknown, title: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0) throw new HttpError(400, `${title}不正确`);
  return n;
}

export const param = (req: FastifyRequest, name: string) => (req.params as Record<string, string>)[name];

/** The file a module file field refers to (`/api/file/view?id=<key>&name=...`): its key (or old number), or null. */
export { fileRefToken as fileIdOf } from '../../core/files/store.js';

export const round2 = (n: number) => Math.round(n * 100) / 100;

/** Arrays the runtime keeps in jsonb come back parsed; tolerate text from older rows. */
export function jsonArray<T = unknown>(value: unknown): T[] {
  if (Array.isArray(value)) return value as T[];
  if (typeof value === 'string') {
    try {
      const parsed = JSON.parse(value) as unknown;
      return Array.isArray(parsed) ? (parsed as T[]) : [];
    } catch {
      return [];
    }
  }
  return [];
}
