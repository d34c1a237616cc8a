import { addDays, person, type Person } from './people.js';
import { Random } from './random.js';

/**
 * A deterministic, realistic university: units, the party organisation tree, classes, students, teachers
 * and party members. Records reference each other by `key`; the seeder maps keys to database ids.
 */
export interface UnitSeed {
  key: string;
  name: string;
  shortName: string;
  /** DJ_DW_LB: 1 学院, 2 机关部门, 3 直属单位, 5 群团组织. */
  type: string;
  code: string;
  sort: number;
  leader: string;
  phone: string;
}

export interface OrgSeed {
  key: string;
  parentKey: string | null;
  name: string;
  shortName: string;
  /** DJ_DZZ_LB: 1 党委, 2 党总支, 3 党支部, 4 联合党支部. */
  type: string;
  code: string;
  unitKey: string | null;
  /** What kind of people its branches hold, for placing members. */
  kind: 'teacher' | 'student' | 'graduate' | 'retiree' | 'office' | 'committee';
  foundedOn: string;
  termStart: string;
  termEnd: string;
  secretary: string;
  contactPhone: string;
  sort: number;
}

export interface ClassSeed {
  key: string;
  name: string;
  code: string;
  unitKey: string;
  grade: string;
  major: string;
}

export interface StudentSeed extends Person {
  key: string;
  studentNo: string;
  unitKey: string;
  classKey: string;
  grade: string;
  major: string;
  /** GB/T 4762: 01 中共党员, 02 预备党员, 03 共青团员, 13 群众. */
  politicalStatus: string;
  enrolledOn: string;
}

export interface TeacherSeed extends Person {
  key: string;
  staffNo: string;
  unitKey: string;
  title: string;
  jobPost: string;
  education: string;
  politicalStatus: string;
  hiredOn: string;
  retired: boolean;
}

export interface MemberSeed extends Person {
  key: string;
  orgKey: string;
  unitKey: string;
  personKey: string;
  /** DJ_DY_RYLBXX: 1 在职教职工, 2 离退休教职工, 3 研究生, 4 本科生. */
  category: string;
  /** DJ_DYJBXX_RYLX: 1 正式党员, 2 预备党员. */
  memberType: string;
  /** DJ_DY_DJZTXX: 1 正常 ... */
  partyStatus: string;
  education: string;
  degree: string | null;
  title: string | null;
  jobPost: string;
  applyDate: string;
  joinDate: string;
  fullDate: string | null;
  workStartDate: string | null;
  address: string;
}

export interface University {
  name: string;
  units: UnitSeed[];
  orgs: OrgSeed[];
  classes: ClassSeed[];
  students: StudentSeed[];
  teachers: TeacherSeed[];
  members: MemberSeed[];
}

const OFFICES: [string, string, string][] = [
  ['党委办公室', '党办', '2'], ['党委组织部', '组织部', '2'], ['党委宣传部', '宣传部', '2'], ['纪委办公室', '纪委办', '2'],
  ['校长办公室', '校办', '2'], ['人事处', '人事处', '2'], ['教务处', '教务处', '2'], ['学生工作部', '学工部', '2'],
  ['财务处', '财务处', '2'], ['科技处', '科技处', '2'], ['后勤管理处', '后勤处', '3'], ['图书馆', '图书馆', '3'],
  ['信息化建设与管理中心', '信息中心', '3'], ['校团委', '团委', '5'], ['工会', '工会', '5'],
];
const COLLEGES: [string, string, string[]][] = [
  ['马克思主义学院', '马院', ['思想政治教育']],
  ['机电工程学院', '机电学院', ['机械设计制造及其自动化', '电气工程及其自动化']],
  ['铁道交通运输学院', '交通学院', ['交通运输', '铁道工程']],
  ['信息工程学院', '信息学院', ['计算机科学与技术', '软件工程', '数据科学与大数据技术']],
  ['经济管理学院', '经管学院', ['工商管理', '会计学', '物流管理']],
  ['外国语学院', '外语学院', ['英语', '商务英语']],
  ['土木工程学院', '土木学院', ['土木工程', '工程造价']],
  ['艺术设计学院', '艺术学院', ['视觉传达设计', '环境设计']],
  ['电子信息学院', '电子学院', ['电子信息工程', '通信工程']],
  ['体育学院', '体育学院', ['体育教育']],
  ['数理学院', '数理学院', ['数学与应用数学', '应用物理学']],
  ['继续教育学院', '继教学院', ['工程管理']],
];
const MEMBERS_PER_BRANCH = 22;
const GRADES = ['2022', '2023', '2024', '2025'];
const TODAY = '2026-11-22';

const TITLES_BY_LEVEL = [['101', '102', '103'], ['201', '202', '203'], ['301', '302', '303'], ['401', '403']];

export function generateUniversity(options: { members: number; seed?: number; name?: string }): University {
  const rng = new Random(options.seed ?? 20261122);
  const name = options.name ?? '湖南铁道职业技术学院';
  const usedIds = new Set<string>();
  const units: UnitSeed[] = [];
  const orgs: OrgSeed[] = [];
  const classes: ClassSeed[] = [];
  const students: StudentSeed[] = [];
  const teachers: TeacherSeed[] = [];
  const members: MemberSeed[] = [];

  const term = () => {
    const start = `${rng.int(2021, 2024)}-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`;
    const years = 3; // branches serve three-year terms (《中国共产党支部工作条例》)
    return { termStart: start, termEnd: addDays(start, years * 365) };
  };
  const addOrg = (o: Omit<OrgSeed, 'code' | 'foundedOn' | 'termStart' | 'termEnd' | 'secretary' | 'contactPhone' | 'sort'>) => {
    const org: OrgSeed = {
      ...o,
      code: `DZZ${String(orgs.length + 1).padStart(5, '0')}`,
      foundedOn: `${rng.int(1985, 2015)}-0${rng.int(1, 9)}-${String(rng.int(10, 28))}`,
      ...term(),
      secretary: person(rng, 1965, 1990, usedIds).name,
      contactPhone: `0731-${rng.int(2200, 2299)}${String(rng.int(0, 9999)).padStart(4, '0')}`,
      sort: orgs.length + 1,
    };
    orgs.push(org);
    return org;
  };

  const contact = () => ({ leader: person(rng, 1965, 1985, usedIds).name, phone: `0731-${rng.int(2200, 2299)}${String(rng.int(0, 9999)).padStart(4, '0')}` });
  const root = addOrg({ key: 'org-root', parentKey: null, name: `中共${name}委员会`, shortName: '校党委', type: '1', unitKey: null, kind: 'committee' });

  // Offices under an organ party committee (机关党委), one branch per office.
  const organ = addOrg({ key: 'org-organ', parentKey: root.key, name: '机关党委', shortName: '机关党委', type: '1', unitKey: null, kind: 'committee' });
  OFFICES.forEach(([unitName, short, type], i) => {
    const unit: UnitSeed = { key: `unit-office-${i}`, name: unitName, shortName: short, type, code: `JG${String(i + 1).padStart(3, '0')}`, sort: i + 1, ...contact() };
    units.push(unit);
    addOrg({ key: `org-office-${i}`, parentKey: organ.key, name: `${short}党支部`, shortName: `${short}党支部`, type: '3', unitKey: unit.key, kind: 'office' });
  });

  // Colleges: members split 35% teachers, 10% retirees, 45% undergraduates, 10% graduates.
  const share = { teacher: 0.35, retiree: 0.1, student: 0.45, graduate: 0.1 };
  const perCollege = options.members / COLLEGES.length;
  COLLEGES.forEach(([collegeName, short, majors], c) => {
    const unit: UnitSeed = { key: `unit-college-${c}`, name: collegeName, shortName: short, type: '1', code: `XY${String(c + 1).padStart(3, '0')}`, sort: 100 + c, ...contact() };
    units.push(unit);
    const big = perCollege >= 100;
    const college = addOrg({ key: `org-college-${c}`, parentKey: root.key, name: big ? `中共${collegeName}委员会` : `中共${collegeName}总支部委员会`, shortName: big ? `${short}党委` : `${short}党总支`, type: big ? '1' : '2', unitKey: unit.key, kind: 'committee' });
    const branches = (kind: OrgSeed['kind'], label: string, count: number) => {
      const n = Math.max(1, Math.ceil(count / MEMBERS_PER_BRANCH));
      for (let b = 0; b < n; b++) {
        addOrg({ key: `org-${c}-${kind}-${b}`, parentKey: college.key, name: `${short}${label}第${b + 1}党支部`, shortName: `${label}${b + 1}支部`, type: '3', unitKey: unit.key, kind });
      }
    };
    branches('teacher', '教工', perCollege * share.teacher);
    branches('retiree', '离退休', perCollege * share.retiree);
    branches('student', '本科生', perCollege * share.student);
    branches('graduate', '研究生', perCollege * share.graduate);
    for (const grade of GRADES) {
      majors.forEach((major, m) => {
        classes.push({ key: `class-${c}-${grade}-${m}`, name: `${major}${grade.slice(2)}01班`, code: `${grade}${String(c + 1).padStart(2, '0')}${m + 1}01`, unitKey: unit.key, grade, major });
      });
    }
  });

  // Members, spread over the branches of their kind.
  const branchesByKind = new Map<string, OrgSeed[]>();
  for (const o of orgs) if (o.type === '3') branchesByKind.set(o.kind, [...(branchesByKind.get(o.kind) ?? []), o]);
  const kinds: [OrgSeed['kind'], number][] = [['teacher', share.teacher * 0.85], ['office', share.teacher * 0.15], ['retiree', share.retiree], ['student', share.student], ['graduate', share.graduate]];
  for (let i = 0; i < options.members; i++) {
    const kind = rng.weighted(kinds);
    const branch = rng.pick(branchesByKind.get(kind)!);
    const unitKey = branch.unitKey!;
    const isStudent = kind === 'student' || kind === 'graduate';
    const retiree = kind === 'retiree';
    const born = isStudent ? (kind === 'graduate' ? [1996, 2002] : [2002, 2006]) : retiree ? [1940, 1962] : [1965, 1996];
    const p = person(rng, born[0], born[1], usedIds);
    const birthYear = Number(p.birthDate.slice(0, 4));
    // Joined after turning 18, at least a year before today for a full member.
    const earliestJoin = birthYear + 18;
    const latestJoin = Math.min(2026, isStudent ? birthYear + 24 : birthYear + 40);
    const joinYear = rng.int(earliestJoin, Math.max(earliestJoin, latestJoin));
    let joinDate = `${joinYear}-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`;
    if (joinDate > TODAY) joinDate = addDays(joinDate, -365); // nobody joins in the future
    const applyDate = addDays(joinDate, -rng.int(400, 900));
    const probationEnds = addDays(joinDate, 365);
    const full = probationEnds <= TODAY;
    const key = `member-${i}`;
    let personKey: string;
    let title: string | null = null;
    let education: string;
    let degree: string | null;
    let jobPost: string;
    let workStartDate: string | null = null;
    if (isStudent) {
      const grade = kind === 'graduate' ? rng.pick(['2024', '2025']) : rng.pick(GRADES);
      const collegeIndex = Number(unitKey.split('-').pop());
      const cls = rng.pick(classes.filter((x) => x.unitKey === unitKey && x.grade === grade).length ? classes.filter((x) => x.unitKey === unitKey && x.grade === grade) : classes.filter((x) => x.unitKey === unitKey));
      personKey = `student-${students.length}`;
      education = kind === 'graduate' ? '20' : '60';
      degree = kind === 'graduate' ? '4' : null;
      jobPost = '6';
      students.push({ ...p, key: personKey, studentNo: `${grade}${String(collegeIndex + 1).padStart(2, '0')}${String(students.length + 1).padStart(5, '0')}`, unitKey, classKey: cls.key, grade, major: cls.major, politicalStatus: full ? '01' : '02', enrolledOn: `${grade}-09-01` });
    } else {
      const level = rng.weighted([[0, 1], [1, 3], [2, 5], [3, 2]] as const);
      title = rng.pick(TITLES_BY_LEVEL[level]);
      education = rng.weighted([['11', 3], ['14', 5], ['20', 4]] as const);
      degree = education === '11' ? '2' : education === '14' ? '3' : '4';
      jobPost = retiree ? '7' : kind === 'office' ? '1' : rng.weighted([['2', 8], ['3', 1], ['4', 1]] as const);
      workStartDate = `${birthYear + rng.int(22, 28)}-07-01`;
      personKey = `teacher-${teachers.length}`;
      teachers.push({ ...p, key: personKey, staffNo: `T${String(teachers.length + 1).padStart(6, '0')}`, unitKey, title, jobPost, education, politicalStatus: full ? '01' : '02', hiredOn: workStartDate, retired: retiree });
    }
    members.push({
      ...p,
      key,
      orgKey: branch.key,
      unitKey,
      personKey,
      category: retiree ? '2' : kind === 'graduate' ? '3' : kind === 'student' ? '4' : '1',
      memberType: full ? '1' : '2',
      partyStatus: rng.weighted([['1', 985], ['2', 5], ['3', 5], ['5', 5]] as const),
      education,
      degree,
      title,
      jobPost,
      applyDate,
      joinDate,
      fullDate: full ? probationEnds : null,
      workStartDate,
      address: `${p.nativePlace}${rng.pick(['人民路', '解放路', '建设路', '文化路', '劳动路', '五一路'])}${rng.int(1, 300)}号`,
    });
  }
  // A few non-member students and teachers too: the base data people come from.
  const extra = Math.ceil(options.members * 0.2);
  for (let i = 0; i < extra; i++) {
    const cls = rng.pick(classes);
    const p = person(rng, 2002, 2007, usedIds);
    students.push({ ...p, key: `student-${students.length}`, studentNo: `${cls.grade}${String(students.length + 1).padStart(7, '0')}`, unitKey: cls.unitKey, classKey: cls.key, grade: cls.grade, major: cls.major, politicalStatus: rng.chance(0.8) ? '03' : '13', enrolledOn: `${cls.grade}-09-01` });
  }
  return { name, units, orgs, classes, students, teachers, members };
}
