/**
 * Check-in to a meeting by QR code (issue 31). The branch secretary shows a code for a meeting; it encodes
 * `/web/m/checkin/<token>`, a token signed with the server's key that names the meeting and the last day it
 * is valid (the day after the meeting: a late scan still counts, a code kept for later does not). A member
 * of the meeting's organisation who opens it is added to the meeting's attendance (`attendeeIds`); twice is once.
 *
 * - `GET  /api/meetings/mine`          meetings of my organisation (the month before and after today), whether I attended
 * - `GET  /api/meetings/{id}/checkin`  the meeting's token and link (`meeting:edit`, the meeting in the caller's scope)
 * - `POST /api/meetings/checkin`       `{ token }`: marks the caller present; answers the meeting and `already`
 */
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { localToday } from '../../../shared/module-schema/computed.js';
import { addDays } from '../../../shared/calendar.js';
import { currentUser, LOGIN, perm } from '../../core/auth/guard.js';
import { HttpError } from '../../errors.js';
import { memberOfUser } from '../member/accounts.js';
import { orgTreeOf } from '../org/index.js';

/** The path a code opens (under the web base). */
export const CHECKIN_PATH = '/web/m/checkin/';

const compact = (day: string) => day.replaceAll('-', '');
const expand = (d: string) => `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}`;

export function checkinSigner(key: string) {
  const sign = (meetingId: number, until: string) =>
    crypto.createHmac('sha256', key).update(`meeting-checkin:${meetingId}:${until}`).digest('base64url').slice(0, 22);
  return {
    /** `<id>-<yyyymmdd>-<signature>`: valid through `until`. */
    token(meetingId: number, until: string): string {
      return `${meetingId}-${compact(until)}-${sign(meetingId, until)}`;
    },
    /** The meeting and last day a token names, or null when it was not made here. */
    read(token: string): { meetingId: number; until: string } | null {
      const m = /^(\d{1,12})-(\d{8})-([\w-]{22})$/.exec(token);
      if (!m) return null;
      const meetingId = Number(m[1]);
      const until = expand(m[2]);
      const expected = Buffer.from(sign(meetingId, until));
      const given = Buffer.from(m[3]);
      return expected.length === given.length && crypto.timingSafeEqual(expected, given) ? { meetingId, until } : null;
    },
  };
}

/** The last day a meeting's code is valid: the day after the meeting. */
export const checkinUntil = (meetingDate: string) => addDays(meetingDate, 1);

const refuse = (status: number, message: string): never => {
  throw new HttpError(status, message);
};

export async function checkinRoutes(app: FastifyInstance): Promise<void> {
  const signer = checkinSigner(app.services.keys.privateKey);
  const db = app.services.database.db;
  const meetings = app.runtime.records('meeting');

  app.get('/api/meetings/mine', { config: LOGIN }, async (req) => {
    const user = currentUser(req);
    const member = await memberOfUser(db, user.id);
    const orgIds = [...new Set([member?.orgId, user.orgId].filter((x): x is number => typeof x === 'number'))];
    if (!orgIds.length) return { content: [] };
    const today = localToday();
    const rows = await sql<{ id: number; type: string; topic: string; date: string; place: string | null; orgId: number; orgName: string; state: number; attended: boolean }>`
      SELECT m.id, m.type, m.topic, m.date::text AS date, m.place, m.org_id AS "orgId", o.name AS "orgName", m.state,
             COALESCE(m.attendee_ids @> ${JSON.stringify(member ? [member.id] : [])}::jsonb AND ${member !== undefined}, false) AS attended
      FROM m_meeting m JOIN m_org o ON o.id = m.org_id
      WHERE m.org_id IN (${sql.join(orgIds)}) AND m.date BETWEEN ${addDays(today, -31)}::date AND ${addDays(today, 31)}::date
      ORDER BY m.date DESC, m.id DESC LIMIT 50`.execute(db);
    return { content: rows.rows };
  });

  app.get('/api/meetings/:id/checkin', { config: perm('meeting:edit') }, async (req) => {
    const meeting = await meetings.get(Number((req.params as { id: string }).id), await app.runtime.actorOf(currentUser(req)));
    const until = checkinUntil(meeting.date as string);
    if (localToday() > until) refuse(400, '会议已结束，签到码已过期');
    const token = signer.token(meeting.id, until);
    return { token, path: `${CHECKIN_PATH}${token}`, until, topic: meeting.topic, date: meeting.date };
  });

  app.post('/api/meetings/checkin', { config: LOGIN }, async (req) => {
    // The type first: converting a crafted value (an array nested deep) is what failed (issue 38.12).
    const token = (req.body as { token?: unknown } | undefined)?.token;
    const claim = typeof token === 'string' ? signer.read(token) : null;
    if (!claim) return refuse(400, '签到码无效，请重新扫描会议现场的二维码');
    if (localToday() > claim.until) refuse(400, '签到码已过期，请联系会议组织者');
    const user = currentUser(req);
    const member = await memberOfUser(db, user.id);
    if (!member) refuse(403, '您的账号没有关联党员档案，不能签到');
    for (let attempt = 0; ; attempt++) {
      const row = await meetings.readRow(claim.meetingId);
      if (!row) return refuse(404, '会议不存在或已删除');
      // 出席 counts members of the meeting's organisation (a branch's members; a committee's: those of its branches).
      const orgs = await orgTreeOf(app.services)!.subtreeIds([row.orgId as number]);
      if (!member!.orgId || !orgs.includes(member!.orgId)) refuse(403, '您不是本次会议所在党组织的党员，不能签到');
      const attendees = (row.attendeeIds as number[] | null) ?? [];
      const answer = { meeting: { id: row.id, topic: row.topic, date: row.date, type: row.type }, member: member!.name };
      if (attendees.includes(member!.id)) return { ...answer, already: true };
      if (row.state !== -1) refuse(400, '会议记录已提交审核，不能再签到');
      const absent = ((row.absentIds as number[] | null) ?? []).filter((x) => x !== member!.id);
      try {
        // Written as the member (the trail names who checked in), whatever their role's scope.
        await meetings.update(
          { id: row.id, version: row.version, attendeeIds: [...attendees, member!.id], absentIds: absent.length ? absent : null },
          { id: user.id, username: user.username, scope: 'all', orgId: member!.orgId },
        );
        return { ...answer, already: false };
      } catch (e) {
        // Members scanning at once: the one who lost the version race reads the roster again.
        if (e instanceof HttpError && e.statusCode === 409 && attempt < 5) continue;
        throw e;
      }
    }
  });
}
