import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { University } from './university.js';

const CHUNK = 500;

type Row = Record<string, unknown>;

async function insertChunks(db: Kysely<Record<string, Row>>, table: string, rows: Row[]): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += CHUNK) {
    const inserted = await db.insertInto(table).values(rows.slice(i, i + CHUNK)).returning('id').execute();
    ids.push(...inserted.map((r) => Number(r.id)));
  }
  return ids;
}

export interface SeedCounts {
  units: number;
  orgs: number;
  classes: number;
  students: number;
  teachers: number;
  members: number;
}

/**
 * Writes a generated university into the module tables (m_unit, m_org, m_class, m_student, m_teacher,
 * m_member) in one transaction. Bulk SQL, not the record API: this is data loading, with no trail.
 * Returns the database id of every organisation key, for placing demo accounts.
 */
export async function seedUniversity(database: Database, u: University, school: string): Promise<{ counts: SeedCounts; orgIds: Map<string, number> }> {
  return database.db.transaction().execute(async (trx) => {
    const db = trx as unknown as Kysely<Record<string, Row>>;
    const stamp = { school };
    const unitIds = new Map<string, number>();
    const unitIdList = await insertChunks(db, 'm_unit', u.units.map((x) => ({ ...stamp, name: x.name, short_name: x.shortName, type: x.type, code: x.code, sort: x.sort, leader: x.leader, phone: x.phone })));
    u.units.forEach((x, i) => unitIds.set(x.key, unitIdList[i]));

    // Organisations level by level, so every parent id exists before its children.
    const orgIds = new Map<string, number>();
    let level = u.orgs.filter((o) => o.parentKey === null);
    while (level.length) {
      const ids = await insertChunks(db, 'm_org', level.map((o) => ({
        ...stamp, name: o.name, short_name: o.shortName, code: o.code, type: o.type, parent_id: o.parentKey ? orgIds.get(o.parentKey) : null,
        unit_id: o.unitKey ? unitIds.get(o.unitKey) : null, secretary: o.secretary, founded_on: o.foundedOn, term_start: o.termStart,
        term_end: o.termEnd, contact_phone: o.contactPhone, sort: o.sort,
        // Committees sign introduction letters, which print their address, fax and postcode (issue 33.10); no random draw, so the rest of the demo stays the same.
        ...(o.type === '1' && { address: `湖南省长沙市岳麓区麓山南路${o.sort}号 ${o.shortName}办公室`, fax: o.contactPhone, postcode: '410083' }),
        committee: o.type === '3' ? null : `${o.secretary}（书记）`,
      })));
      level.forEach((o, i) => orgIds.set(o.key, ids[i]));
      const keys = new Set(level.map((o) => o.key));
      level = u.orgs.filter((o) => o.parentKey !== null && keys.has(o.parentKey));
    }

    const classIds = new Map<string, number>();
    const classIdList = await insertChunks(db, 'm_class', u.classes.map((c) => ({ ...stamp, name: c.name, code: c.code, unit_id: unitIds.get(c.unitKey), grade: c.grade, major: c.major })));
    u.classes.forEach((c, i) => classIds.set(c.key, classIdList[i]));

    await insertChunks(db, 'm_student', u.students.map((s) => ({
      ...stamp, student_no: s.studentNo, name: s.name, gender: s.gender, ethnicity: s.ethnicity, birth_date: s.birthDate, id_card: s.idCard,
      unit_id: unitIds.get(s.unitKey), class_id: classIds.get(s.classKey), grade: s.grade, major: s.major, political_status: s.politicalStatus,
      phone: s.phone, enrolled_on: s.enrolledOn,
    })));
    await insertChunks(db, 'm_teacher', u.teachers.map((t) => ({
      ...stamp, staff_no: t.staffNo, name: t.name, gender: t.gender, ethnicity: t.ethnicity, birth_date: t.birthDate, id_card: t.idCard,
      unit_id: unitIds.get(t.unitKey), title: t.title, job_post: t.jobPost, education: t.education, political_status: t.politicalStatus,
      phone: t.phone, hired_on: t.hiredOn, retired: t.retired,
    })));
    const personNo = new Map<string, string>([...u.students.map((s) => [s.key, s.studentNo] as const), ...u.teachers.map((t) => [t.key, t.staffNo] as const)]);
    await insertChunks(db, 'm_member', u.members.map((m) => ({
      ...stamp, name: m.name, gender: m.gender, ethnicity: m.ethnicity, birth_date: m.birthDate, id_card: m.idCard, native_place: m.nativePlace,
      education: m.education, degree: m.degree, title: m.title, job_post: m.jobPost, category: m.category, member_type: m.memberType,
      party_status: m.partyStatus, apply_date: m.applyDate, join_date: m.joinDate, full_date: m.fullDate, org_id: orgIds.get(m.orgKey),
      unit_id: unitIds.get(m.unitKey), person_no: personNo.get(m.personKey) ?? null, phone: m.phone, address: m.address, work_start_date: m.workStartDate,
    })));
    return {
      counts: { units: u.units.length, orgs: u.orgs.length, classes: u.classes.length, students: u.students.length, teachers: u.teachers.length, members: u.members.length },
      orgIds,
    };
  });
}
