/**
 * Seat plans and discussion groups for an exam or a class. Seats fill a room grid row by row;
 * `random` shuffles everyone, `branch` keeps the people of one party branch together (class seating)
 * and `spread` seats them apart (exams: neighbours come from different branches where possible).
 */
import { draw, seededRandom } from './paper';

export interface SeatPerson {
  id: number;
  name: string;
  /** The party branch (or other organisation) the person belongs to. */
  orgId: number | null;
  orgName?: string | null;
}

export type SeatingMode = 'random' | 'branch' | 'spread';

export interface Seat extends SeatPerson {
  row: number;
  col: number;
  /** 1-based seat number, row by row. */
  no: number;
}

export class SeatingError extends Error {}

export function arrangeSeats(people: readonly SeatPerson[], rows: number, cols: number, mode: SeatingMode, seed: number): Seat[] {
  if (!Number.isInteger(rows) || !Number.isInteger(cols) || rows < 1 || cols < 1 || rows > 50 || cols > 50) throw new SeatingError('考场的行数和列数须为1到50的整数');
  if (people.length > rows * cols) throw new SeatingError(`座位不足：${people.length}人，只有${rows * cols}个座位`);
  const order = orderFor(people, mode, seededRandom(seed));
  return order.map((p, i) => ({ ...p, row: Math.floor(i / cols) + 1, col: (i % cols) + 1, no: i + 1 }));
}

function byBranch(people: readonly SeatPerson[], random: () => number): SeatPerson[][] {
  const groups = new Map<string, SeatPerson[]>();
  for (const p of draw(people, people.length, random)) {
    const key = String(p.orgId ?? '');
    groups.set(key, [...(groups.get(key) ?? []), p]);
  }
  return [...groups.values()];
}

function orderFor(people: readonly SeatPerson[], mode: SeatingMode, random: () => number): SeatPerson[] {
  if (mode === 'random') return draw(people, people.length, random);
  const groups = byBranch(people, random);
  if (mode === 'branch') return groups.flat();
  // spread: take one from each branch in turn, the largest branches first.
  groups.sort((a, b) => b.length - a.length);
  const out: SeatPerson[] = [];
  for (let i = 0; out.length < people.length; i++) for (const g of groups) if (g[i]) out.push(g[i]);
  return out;
}

/**
 * Splits people into `count` discussion groups of near-equal size: `random` deals a shuffled list,
 * `branch` keeps a branch's people together as far as the sizes allow.
 */
export function makeGroups(people: readonly SeatPerson[], count: number, mode: 'random' | 'branch', seed: number): SeatPerson[][] {
  if (!Number.isInteger(count) || count < 1 || count > Math.max(1, people.length)) throw new SeatingError('分组数须为1到学员人数之间的整数');
  const random = seededRandom(seed);
  const order = mode === 'random' ? draw(people, people.length, random) : byBranch(people, random).flat();
  const groups: SeatPerson[][] = Array.from({ length: count }, () => []);
  if (mode === 'random') order.forEach((p, i) => groups[i % count].push(p));
  else {
    // Contiguous slices of the branch-ordered list: sizes differ by at most one.
    const base = Math.floor(order.length / count);
    let extra = order.length % count;
    let at = 0;
    for (const g of groups) {
      const size = base + (extra-- > 0 ? 1 : 0);
      g.push(...order.slice(at, at + size));
      at += size;
    }
  }
  return groups;
}
