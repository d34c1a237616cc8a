/**
 * Exam papers: composed by hand (a fixed list of questions) or by rule (so many questions of a type and
 * knowledge tag, drawn at random for each student). The draw is seeded, so the same seed gives the same
 * paper (tests, and a resumed session keeps its paper anyway because it is stored).
 */
import type { PaperItem, QuestionTypeValue } from './marking';

export interface BankQuestion {
  id: number;
  type: QuestionTypeValue;
  tags: string[];
  score: number;
}

export interface PaperRule {
  type: QuestionTypeValue;
  /** Only questions carrying this knowledge tag; empty = any. */
  tag?: string | null;
  count: number;
  /** Score of each question drawn by this rule; empty = the question's own score. */
  score?: number | null;
}

/** A small, fast seeded generator (mulberry32): the same seed gives the same sequence. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Draws `count` distinct items (Fisher–Yates on a copy). */
export function draw<T>(items: readonly T[], count: number, random: () => number): T[] {
  const copy = items.slice();
  const n = Math.min(count, copy.length);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(random() * (copy.length - i));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy.slice(0, n);
}

export class PaperRuleError extends Error {}

/**
 * The paper of one student under the rules: each rule draws its questions from those not drawn yet.
 * Throws PaperRuleError (message for users) when the bank has too few questions for a rule.
 */
export function composeByRules(rules: readonly PaperRule[], bank: readonly BankQuestion[], seed: number): PaperItem[] {
  const random = seededRandom(seed);
  const used = new Set<number>();
  const paper: PaperItem[] = [];
  for (const rule of rules) {
    const pool = bank.filter((q) => q.type === rule.type && !used.has(q.id) && (!rule.tag || q.tags.includes(rule.tag)));
    if (pool.length < rule.count) throw new PaperRuleError(`题库中符合规则的题目不足：需要${rule.count}道，只有${pool.length}道`);
    for (const q of draw(pool, rule.count, random)) {
      used.add(q.id);
      paper.push({ q: q.id, type: q.type, score: rule.score ?? q.score });
    }
  }
  // Grouped by type, as papers are printed: single, multiple, judge, fill, short answer.
  return paper.sort((a, b) => a.type - b.type);
}

/** The paper of a hand-composed exam: its questions in the order given, with their own scores. */
export function composeByHand(questionIds: readonly number[], bank: ReadonlyMap<number, BankQuestion>): PaperItem[] {
  return questionIds.flatMap((id) => {
    const q = bank.get(id);
    return q ? [{ q: id, type: q.type, score: q.score }] : [];
  });
}

export const paperTotal = (paper: readonly PaperItem[]) => Math.round(paper.reduce((s, i) => s + i.score, 0) * 100) / 100;
