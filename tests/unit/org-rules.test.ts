import { describe, expect, it } from 'vitest';
import { orgWarnings } from '../../src/shared/org-rules.js';

const branch = { type: '3', memberCount: 5, fullMemberCount: 5, committee: null, termEnd: '2028-01-01' };
const codes = (o: Parameters<typeof orgWarnings>[0]) => orgWarnings(o, '2026-11-22').map((w) => w.code);

describe('party organisation rules', () => {
  it('a branch needs at least 3 full members', () => {
    expect(codes({ ...branch, fullMemberCount: 2, memberCount: 4 })).toEqual(['too-few-full-members']);
    expect(codes({ ...branch, fullMemberCount: 3 })).toEqual([]);
  });
  it('a branch of 7 or more full members needs a committee', () => {
    expect(codes({ ...branch, fullMemberCount: 7, memberCount: 7 })).toEqual(['needs-committee']);
    expect(codes({ ...branch, fullMemberCount: 7, memberCount: 7, committee: '张三（书记）、李四（组织委员）' })).toEqual([]);
  });
  it('50 or more members suggests a 总支, 100 or more a 党委', () => {
    expect(codes({ ...branch, memberCount: 50, fullMemberCount: 40, committee: 'x' })).toEqual(['suggest-general-branch']);
    expect(codes({ ...branch, memberCount: 100, fullMemberCount: 90, committee: 'x' })).toEqual(['suggest-committee']);
  });
  it('a term past its end date is overdue for election, for any organisation', () => {
    expect(codes({ ...branch, termEnd: '2026-11-21' })).toEqual(['term-overdue']);
    expect(codes({ type: '1', memberCount: 0, fullMemberCount: 0, committee: null, termEnd: '2020-01-01' })).toEqual(['term-overdue']);
    expect(orgWarnings({ ...branch, termEnd: '2026-01-01' }, '2026-11-22')[0].message).toBe('本届任期已于2026-01-01届满，应及时换届选举');
  });
  it('[S1.F4c] a term ending within six months is due for election: the day six months ahead yes, the day after no', () => {
    expect(codes({ ...branch, termEnd: '2027-05-22' })).toEqual(['term-due']);
    expect(codes({ ...branch, termEnd: '2027-05-23' })).toEqual([]);
    expect(codes({ ...branch, termEnd: '2026-11-22' })).toEqual(['term-due']);
  });
});
