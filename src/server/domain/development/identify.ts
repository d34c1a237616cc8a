/**
 * Who applies: a new application (or a change to one) is checked against the ID number. Birth date and
 * gender follow from it when left empty and must agree with it when given; the school's student or
 * teacher record with that number fills the number and unit. A person has at most one application in
 * progress and cannot apply while a party member; earlier, ended applications stay as they were.
 */
import { sql } from 'kysely';
import { idCardInfo } from '../../../shared/validators.js';
import { tryLockFor } from '../../db/one-at-a-time.js';
import { HttpError } from '../../errors.js';
import { registerHook } from '../../runtime/index.js';
import { finalStates } from '../../runtime/workflow/states.js';

registerHook('development.identify', async (ctx) => {
  if (ctx.action === 'delete') return;
  const r = ctx.record;
  const info = idCardInfo(r.idCard as string);
  if (!info) return; // validation has refused a bad number already
  const errors: { field: string; message: string }[] = [];
  if (!r.birthDate) r.birthDate = info.birthDate;
  else if (r.birthDate !== info.birthDate) errors.push({ field: 'birthDate', message: `出生日期与身份证号不一致（身份证号为${info.birthDate}）` });
  if (!r.gender) r.gender = info.gender;
  else if (r.gender !== info.gender) errors.push({ field: 'gender', message: '性别与身份证号不一致' });
  if (errors.length) throw new HttpError(400, errors[0].message, { errors });

  const changedPerson = ctx.action === 'create' || ctx.previous?.idCard !== r.idCard;
  if (!changedPerson) return;
  // One application in progress per person, also for writes racing each other (issue 24 §3.5; module
  // tables are made by the runtime from the schema, so no migration can put a partial unique index here).
  if (!(await tryLockFor(ctx.trx, 'development:person', r.idCard as string))) {
    throw new HttpError(409, '该人员的另一份入党申请正在保存，请稍后再试', { errors: [{ field: 'idCard', message: '该人员的另一份入党申请正在保存' }] });
  }
  const active = await sql<{ id: number }>`
    SELECT id FROM m_development WHERE id_card = ${r.idCard} AND NOT (state = ANY(${finalStates(ctx.module)}::int[])) AND id <> ${ctx.id ?? 0} LIMIT 1`.execute(ctx.trx);
  if (active.rows.length) {
    throw new HttpError(400, '该人员已有正在办理的入党申请，不能重复申请', { errors: [{ field: 'idCard', message: '该人员已有正在办理的入党申请' }] });
  }
  const member = await sql<{ id: number }>`SELECT id FROM m_member WHERE id_card = ${r.idCard} AND party_status = '1' LIMIT 1`.execute(ctx.trx);
  if (member.rows.length) throw new HttpError(400, '该人员已是党员，不能申请入党', { errors: [{ field: 'idCard', message: '该人员已是党员' }] });
  if (!r.personNo || !r.unitId) {
    const person = await sql<{ no: string; unit_id: number | null }>`
      SELECT student_no AS no, unit_id FROM m_student WHERE id_card = ${r.idCard}
      UNION ALL SELECT staff_no AS no, unit_id FROM m_teacher WHERE id_card = ${r.idCard} LIMIT 1`.execute(ctx.trx);
    const p = person.rows[0];
    if (p) {
      r.personNo ??= p.no;
      r.unitId ??= p.unit_id;
    }
  }
  if (ctx.action === 'create') r.stage = '1';
});
