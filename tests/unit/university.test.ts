import { describe, expect, it } from 'vitest';
import { generateUniversity } from '../../src/server/seed/university/university.js';
import { idCardInfo, isIdCard, isMobile } from '../../src/shared/validators.js';

describe('the demo university generator', () => {
  const u = generateUniversity({ members: 2000 });

  it('is deterministic', () => {
    const again = generateUniversity({ members: 2000 });
    expect(again.members.slice(0, 50)).toEqual(u.members.slice(0, 50));
    expect(again.orgs.length).toBe(u.orgs.length);
  });

  it('makes a party committee with colleges, branches for teachers, students and retirees', () => {
    const root = u.orgs.filter((o) => o.parentKey === null);
    expect(root).toHaveLength(1);
    expect(root[0].name).toMatch(/^中共.+委员会$/);
    const branches = u.orgs.filter((o) => o.type === '3');
    for (const kind of ['teacher', 'student', 'graduate', 'retiree', 'office']) expect(branches.some((b) => b.kind === kind)).toBe(true);
    const keys = new Set(u.orgs.map((o) => o.key));
    expect(u.orgs.every((o) => o.parentKey === null || keys.has(o.parentKey))).toBe(true);
    expect(u.units.length).toBeGreaterThan(20);
    expect(u.classes.length).toBeGreaterThan(40);
  });

  it('gives every member a valid, unique 18-digit ID number matching birth date and gender', () => {
    const ids = new Set<string>();
    for (const m of u.members) {
      expect(isIdCard(m.idCard)).toBe(true);
      const info = idCardInfo(m.idCard)!;
      expect(info.birthDate).toBe(m.birthDate);
      expect(info.gender).toBe(m.gender);
      expect(isMobile(m.phone)).toBe(true);
      ids.add(m.idCard);
    }
    expect(ids.size).toBe(u.members.length);
  });

  it('keeps dates consistent: joined at 18 or later, full one year after joining, applied before joining', () => {
    for (const m of u.members) {
      const birth = new Date(m.birthDate);
      const join = new Date(m.joinDate);
      expect(join.getFullYear() - birth.getFullYear()).toBeGreaterThanOrEqual(18);
      expect(m.applyDate < m.joinDate).toBe(true);
      if (m.memberType === '1') {
        expect(m.fullDate).not.toBeNull();
        expect((new Date(m.fullDate!).getTime() - join.getTime()) / 86_400_000).toBe(365);
      } else expect(m.fullDate).toBeNull();
    }
  });

  it('places members in branches and scales to about 22 members a branch', () => {
    const branchKeys = new Set(u.orgs.filter((o) => o.type === '3').map((o) => o.key));
    expect(u.members.every((m) => branchKeys.has(m.orgKey))).toBe(true);
    const big = generateUniversity({ members: 20000 });
    const branches = big.orgs.filter((o) => o.type === '3').length;
    expect(20000 / branches).toBeGreaterThan(15);
    expect(20000 / branches).toBeLessThan(30);
  }, 60_000);
});

describe('dates are never in the future', () => {
  it('no member applied, joined or became full after today', () => {
    const u = generateUniversity({ members: 3000 });
    const today = '2026-11-22';
    for (const m of u.members) {
      expect(m.joinDate <= today).toBe(true);
      if (m.fullDate) expect(m.fullDate <= today).toBe(true);
    }
    expect(u.units.every((x) => x.leader && x.phone)).toBe(true);
  });
});
