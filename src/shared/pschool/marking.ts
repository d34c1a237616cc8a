/**
 * Marking of exam answers, the same for every caller (submission, re-marking, the bench). Objective types
 * are marked automatically; short answers wait for a marker.
 *
 * Answer keys as the question bank stores them (`question.answer`):
 * - single choice: one letter, `B`; multiple choice: the letters, `ACD` (any order, separators ignored);
 * - judge: `正确` or `错误`;
 * - fill in the blanks: blanks separated by `|`, accepted alternatives of one blank by `/`
 *   (`中国共产党|为人民服务/全心全意为人民服务`);
 * - short answer: a reference answer for the marker.
 * Answers as learners give them: a letter string for choices (`AC`), `正确`/`错误`, an array of strings
 * (one per blank), or text.
 */
import { QuestionType, type ValueOf } from '../constants';

export type QuestionTypeValue = ValueOf<typeof QuestionType>;

export interface KeyedQuestion {
  type: QuestionTypeValue;
  answer: string;
}

export interface MarkOptions {
  /** Multiple choice: a correct but incomplete choice earns half the score (少选得一半分); wrong choices earn nothing. */
  partialCredit: boolean;
}

/** The score of one answer, or null when a marker must decide (short answers). */
export function markAnswer(q: KeyedQuestion, given: unknown, score: number, opts: MarkOptions): number | null {
  switch (q.type) {
    case QuestionType.SINGLE:
      return letters(given).join('') === letters(q.answer).join('') && letters(q.answer).length === 1 ? score : 0;
    case QuestionType.MULTIPLE: {
      const key = letters(q.answer);
      const chosen = letters(given);
      if (!chosen.length || !key.length) return 0;
      if (chosen.some((c) => !key.includes(c))) return 0;
      if (chosen.length === key.length) return score;
      return opts.partialCredit ? half(score) : 0;
    }
    case QuestionType.JUDGE:
      return normaliseJudge(given) !== null && normaliseJudge(given) === normaliseJudge(q.answer) ? score : 0;
    case QuestionType.FILL: {
      const blanks = fillKey(q.answer);
      if (!blanks.length) return 0;
      const answers = Array.isArray(given) ? given.map((g) => String(g ?? '')) : typeof given === 'string' ? given.split('|') : [];
      const right = blanks.filter((accepted, i) => accepted.includes(normaliseText(answers[i] ?? ''))).length;
      return Math.round((score * right * 100) / blanks.length) / 100;
    }
    case QuestionType.SHORT_ANSWER:
      return null;
    default:
      return 0;
  }
}

const half = (score: number) => Math.round(score * 50) / 100;

/** Upper-case option letters A–Z of an answer, sorted and without duplicates. */
export function letters(value: unknown): string[] {
  const text = Array.isArray(value) ? value.join('') : typeof value === 'string' ? value : '';
  return [...new Set(text.toUpperCase().replace(/[^A-Z]/g, '').split('').filter(Boolean))].sort();
}

const TRUE_WORDS = new Set(['正确', '对', '是', '√', 'T', 'TRUE', 'Y', 'A']);
const FALSE_WORDS = new Set(['错误', '错', '否', '×', 'X', 'F', 'FALSE', 'N', 'B']);

/** `正确`, `错误`, or null for anything else (对/错, √/×, T/F are accepted on import). */
export function normaliseJudge(value: unknown): '正确' | '错误' | null {
  const text = String(value ?? '').trim().toUpperCase();
  if (TRUE_WORDS.has(text)) return '正确';
  if (FALSE_WORDS.has(text)) return '错误';
  return null;
}

/** Trimmed, inner spaces removed, full-width letters and digits folded, lower case. */
export function normaliseText(value: string): string {
  return value
    .normalize('NFKC')
    .replace(/\s+/g, '')
    .toLowerCase();
}

/** The accepted answers of each blank. */
export function fillKey(answer: string): string[][] {
  return answer
    .split('|')
    .map((blank) => blank.split('/').map(normaliseText).filter(Boolean))
    .filter((alts) => alts.length);
}

/** A paper item: a question of the paper and what it is worth. */
export interface PaperItem {
  q: number;
  type: QuestionTypeValue;
  score: number;
}

export interface SheetResult {
  /** Score per question id; null where a marker must still decide. */
  marks: Record<string, number | null>;
  /** Sum of the objective marks. */
  objective: number;
  /** Questions still waiting for a marker. */
  pending: number[];
}

/** Marks a whole answer sheet: every objective item now, short answers left for a marker. */
export function markSheet(paper: PaperItem[], answers: Record<string, unknown>, keys: ReadonlyMap<number, KeyedQuestion>, opts: MarkOptions): SheetResult {
  const marks: Record<string, number | null> = {};
  const pending: number[] = [];
  let objective = 0;
  for (const item of paper) {
    const key = keys.get(item.q);
    // A question deleted from the bank after the paper was made scores nothing.
    const mark = key ? markAnswer({ ...key, type: item.type }, answers[String(item.q)], item.score, opts) : 0;
    marks[String(item.q)] = mark;
    if (mark === null) pending.push(item.q);
    else objective += mark;
  }
  return { marks, objective: Math.round(objective * 100) / 100, pending };
}

/** The total of a sheet's marks (pending ones count nothing yet). */
export function totalOf(marks: Record<string, number | null>): number {
  return Math.round(Object.values(marks).reduce<number>((sum, m) => sum + (m ?? 0), 0) * 100) / 100;
}
