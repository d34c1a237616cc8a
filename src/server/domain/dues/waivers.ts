/**
 * 免交: a closed month left unpaid, exempted with the approval 中组发〔2008〕3号 第七条 asks for (对经济确有
 * 困难的党员, 经党支部研究, 报上一级党委批准后, 可以少交或免交党费). The exemption is recorded (reason, approval,
 * who, when) and the month counts as settled (status.ts SETTLED): the member's standing, the arrears and the
 * 自行脱党 list follow; the closed batch's figures stay as they closed. A started month is corrected instead
 * (adjustments.ts). Permission `dues-batch:adjust`, within the caller's scope.
 */
import { sql } from 'kysely';
import { BatchState } from '../../../shared/constants.js';
import { HttpError } from '../../errors.js';
import { inScope, type Caller, type DuesCore } from './context.js';
import { SETTLED } from './status.js';

const text = (value: unknown, max: number) => (typeof value === 'string' && value.trim().length <= max ? value.trim() : '');

export async function waiveMonths(dues: DuesCore, caller: Caller, memberId: number, body: { itemIds?: unknown; reason?: unknown; approval?: unknown }): Promise<number> {
  const itemIds = Array.isArray(body.itemIds) ? [...new Set(body.itemIds)] : [];
  if (!itemIds.length || itemIds.some((id) => !Number.isSafeInteger(id) || (id as number) <= 0)) throw new HttpError(400, '请选择免交的月份', { errors: [{ field: 'itemIds', message: '请选择免交的月份' }] });
  const reason = text(body.reason, 200);
  const approval = text(body.approval, 100);
  if (!reason) throw new HttpError(400, '请填写免交原因（200字以内）', { errors: [{ field: 'reason', message: '请填写免交原因' }] });
  if (!approval) throw new HttpError(400, '请填写上级党委的批准情况（100字以内，如批准单位和文号）', { errors: [{ field: 'approval', message: '请填写上级党委的批准情况' }] });
  return dues.db.transaction().execute(async (trx) => {
    const items = (await sql<{ id: number; orgId: number; state: number; title: string; settled: boolean; name: string }>`
      SELECT i.id, i.org_id AS "orgId", b.state, b.title, ${SETTLED('i')} AS settled, m.name
      FROM dues_item i JOIN dues_batch b ON b.id = i.batch_id AND b.school = ${dues.school} JOIN m_member m ON m.id = i.member_id
      WHERE i.id = ANY(${itemIds as number[]}::int[]) AND i.member_id = ${memberId} ORDER BY b.first_month FOR UPDATE OF i`.execute(trx)).rows;
    if (items.length !== itemIds.length) throw new HttpError(404, '所选月份不存在');
    const outside = items.find((i) => !inScope(caller.scope, i.orgId));
    if (outside) throw new HttpError(403, `党员“${outside.name}”不在您的管理范围内`);
    const open = items.find((i) => i.state !== BatchState.CLOSED);
    if (open) throw new HttpError(400, `${open.title}尚未关闭，本期应交金额请通过调整更正`);
    const settled = items.find((i) => i.settled);
    if (settled) throw new HttpError(409, `${settled.title}已缴纳、已补缴或已免交`);
    await trx
      .insertInto('dues_waiver')
      .values(items.map((i) => ({ item_id: i.id, member_id: memberId, org_id: i.orgId, reason, approval, created_by: caller.actor.id, created_by_name: caller.actor.name })))
      .execute();
    return items.length;
  });
}
