/**
 * 记录会议: the branch secretary records a meeting of organisation life on the phone — type, topic, date, place,
 * attendance (出席 / 请假 / 缺席, with the reason) of those the meeting is for — a 支委会's committee from the current
 * term, a 支部党员大会's and other meetings' the branch's members (the module's x-fill) — each marked, nobody counted
 * present before they are (全部出席 marks everyone at once), the minutes, a photo from the camera —
 * saved through the generic module API (`POST /api/m/meeting`), so the meeting's own rules (quorum, no date
 * ahead) answer, and their messages show under the fields.
 */
import { useEffect, useMemo, useState } from 'react';
import type { ModuleSchema } from '../../../../shared/module-schema/types';
import type { PublicUser } from '../../../../shared/session-user';
import { localToday } from '../../../../shared/module-schema/computed';
import { ApiError, get, post, type Page } from '../../api';
import { FieldRow, MobileFields, fieldErrors, mobileKind, useDictOptions, type MobileField } from '../../form/MobileFields';
import { Section } from '../../ui';
import { useLoad } from '../../useLoad';

const MODULE = 'meeting';
/** What a phone records, in this order; the attendance goes after the place. Fields x-show-if hides stay hidden. */
const BEFORE_ATTENDANCE = ['type', 'topic', 'date', 'place', 'committeeSize', 'secretaryLecture', 'votes', 'entitled'];
const AFTER_ATTENDANCE = ['minutes', 'photo', 'invalid'];

type Presence = 'present' | 'leave' | 'absent' | 'unmarked';
const PRESENCE: { key: Presence; label: string }[] = [
  { key: 'present', label: '出席' },
  { key: 'leave', label: '请假' },
  { key: 'absent', label: '缺席' },
];

interface Attendance {
  presence: Presence;
  reason: string;
}

/** The meeting's attendance fields from the roll: present → attendeeIds; on leave or absent → absentIds, with the reasons (unmarked: neither). */
export function attendanceValues(roll: Map<number, Attendance>, names: Map<number, string>): { attendeeIds: number[]; absentIds: number[]; absentReason?: string } {
  const attendeeIds: number[] = [];
  const absentIds: number[] = [];
  const reasons: string[] = [];
  for (const [id, a] of roll) {
    if (a.presence === 'present') attendeeIds.push(id);
    else if (a.presence !== 'unmarked') {
      absentIds.push(id);
      reasons.push(`${names.get(id) ?? id}${a.presence === 'leave' ? '请假' : '缺席'}${a.reason.trim() ? `：${a.reason.trim()}` : ''}`);
    }
  }
  return { attendeeIds, absentIds, ...(reasons.length ? { absentReason: reasons.join('；') } : {}) };
}

function fieldsOf(schema: ModuleSchema, names: string[]): MobileField[] {
  return names.filter((n) => schema.properties[n] && mobileKind(schema.properties[n])).map((n) => ({ name: n, schema: schema.properties[n], required: schema.required?.includes(n) }));
}

export default function RecordMeeting({ user }: { user: PublicUser }) {
  const meta = useLoad(() => get<{ schema: ModuleSchema }>(`/api/m/${MODULE}/schema`));
  const members = useLoad(
    () => (user.orgId ? post<Page<{ id: number; name: string }>>('/api/m/member/list?page=0&size=500&sort=name,asc', { orgId: user.orgId }) : Promise.resolve({ content: [], totalElements: 0 })),
  );
  const schema = meta.data?.schema;
  const [values, setValues] = useState<Record<string, unknown>>({ date: localToday() });
  const [roll, setRoll] = useState<Map<number, Attendance>>(new Map());
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState('');
  const [saved, setSaved] = useState<{ id: number; topic: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const dicts = useDictOptions(schema ? Object.values(schema.properties).flatMap((f) => (f['x-dict'] ? [f['x-dict']] : [])) : []);
  const names = useMemo(() => new Map((members.data?.content ?? []).map((m) => [m.id, m.name])), [members.data]);

  // The roll of the meeting's type (x-fill: a 支委会's committee), else the branch's members; nobody marked yet.
  const type = values.type as string | undefined;
  useEffect(() => {
    if (!members.data || !type) return;
    let alive = true;
    const everyone = members.data.content.map((m) => m.id);
    post<{ values: { attendeeIds?: number[]; committeeSize?: number; entitled?: number } }>(`/api/m/${MODULE}/fill/meetings.attendance`, { values: { type, orgId: user.orgId } })
      .catch(() => ({ values: {} as { attendeeIds?: number[]; committeeSize?: number; entitled?: number } }))
      .then(({ values: filled }) => {
        if (!alive) return;
        const ids = filled.attendeeIds?.length ? filled.attendeeIds.filter((id) => everyone.includes(id)) : everyone;
        // Those already marked keep their mark when the roll changes with the type.
        setRoll((prev) => new Map(ids.map((id) => [id, prev.get(id) ?? { presence: 'unmarked', reason: '' }])));
        const sizes = Object.fromEntries(Object.entries({ committeeSize: filled.committeeSize, entitled: filled.entitled }).filter(([, v]) => v !== undefined));
        if (Object.keys(sizes).length) setValues((v) => ({ ...v, ...sizes }));
      });
    return () => {
      alive = false;
    };
  }, [members.data, type, user.orgId]);
  useEffect(() => {
    if (schema) setValues((v) => ({ ...Object.fromEntries(Object.entries(schema.properties).filter(([, f]) => f.default !== undefined && !f.readOnly).map(([n, f]) => [n, f.default])), ...v }));
  }, [schema]);

  if (!user.orgId) return <p className="m-note">您的账号未关联党组织，请在电脑端登记会议</p>;
  if (meta.error || members.error) return <p className="m-note m-error" role="alert">{meta.error || members.error}</p>;
  if (!schema || !members.data) return <p className="m-note">加载中…</p>;
  if (saved) {
    return (
      <div className="m-card" role="status">
        <p className="m-done">会议已保存：{saved.topic}</p>
        <button type="button" className="m-btn m-btn-primary m-block" onClick={() => { setSaved(null); setValues({ date: localToday(), type: values.type, committeeSize: values.committeeSize, entitled: values.entitled }); setRoll(new Map([...roll.keys()].map((id) => [id, { presence: 'unmarked', reason: '' }]))); }}>
          再记录一次
        </button>
      </div>
    );
  }

  const set = (name: string, value: unknown) => setValues((v) => ({ ...v, [name]: value }));
  const mark = (id: number, change: Partial<Attendance>) => setRoll((r) => new Map(r).set(id, { ...r.get(id)!, ...change }));
  const counts = PRESENCE.map((p) => [...roll.values()].filter((a) => a.presence === p.key).length);
  const unmarked = [...roll.values()].filter((a) => a.presence === 'unmarked').length;
  const allPresent = () => setRoll((r) => new Map([...r].map(([id, a]) => [id, a.presence === 'unmarked' ? { ...a, presence: 'present' } : a])));
  const save = async () => {
    setErrors({});
    // Nobody is counted present without being marked (a save with only a topic used to count everyone).
    if (unmarked) {
      setMessage('');
      setErrors({ attendeeIds: `还有${unmarked}人未标记出席情况：请逐一标记，或点“全部出席”后再标记请假、缺席的人` });
      return;
    }
    setBusy(true);
    setMessage('');
    const body = Object.fromEntries(Object.entries({ ...values, orgId: user.orgId, ...attendanceValues(roll, names) }).filter(([, v]) => v !== undefined && v !== ''));
    try {
      const record = await post<{ id: number; topic: string }>(`/api/m/${MODULE}`, body);
      setSaved(record);
      window.scrollTo(0, 0);
    } catch (e) {
      setMessage((e as Error).message);
      if (e instanceof ApiError) setErrors(fieldErrors(e.fields));
    } finally {
      setBusy(false);
    }
  };

  const attendanceError = errors.attendeeIds || errors.absentIds || errors.absentReason;
  return (
    <form className="m-form" noValidate onSubmit={(e) => { e.preventDefault(); void save(); }}>
      <div className="m-card">
        <MobileFields fields={fieldsOf(schema, BEFORE_ATTENDANCE)} values={values} onChange={set} errors={errors} dicts={dicts} moduleName={MODULE} />
      </div>
      <Section title={`出席情况（出席 ${counts[0]}，请假 ${counts[1]}，缺席 ${counts[2]}${unmarked ? `，未标记 ${unmarked}` : ''}）`} empty={roll.size === 0}>
        {unmarked > 0 && (
          <button type="button" className="m-btn m-block" onClick={allPresent}>
            全部出席
          </button>
        )}
        <ul className="m-list" aria-label="出席情况">
          {[...roll].map(([id, a]) => (
            <li key={id} className="m-item m-attend">
              <div className="m-attend-row">
                <span className="m-item-title">{names.get(id)}</span>
                <span className="m-seg" role="radiogroup" aria-label={`${names.get(id)}的出席情况`}>
                  {PRESENCE.map((p) => (
                    <button key={p.key} type="button" role="radio" aria-checked={a.presence === p.key} className={a.presence === p.key ? 'm-seg-on' : ''} onClick={() => mark(id, { presence: p.key })}>
                      {p.label}
                    </button>
                  ))}
                </span>
              </div>
              {(a.presence === 'leave' || a.presence === 'absent') && (
                <input className="m-input" aria-label={`${names.get(id)}${a.presence === 'leave' ? '请假' : '缺席'}原因`} placeholder={a.presence === 'leave' ? '请假原因' : '缺席原因（可不填）'} value={a.reason} maxLength={100} onChange={(e) => mark(id, { reason: e.target.value })} />
              )}
            </li>
          ))}
        </ul>
        {attendanceError && <p className="m-field-error" role="alert">{attendanceError}</p>}
      </Section>
      <div className="m-card">
        <MobileFields fields={fieldsOf(schema, AFTER_ATTENDANCE)} values={values} onChange={set} errors={errors} dicts={dicts} moduleName={MODULE} idPrefix="mf2" />
        {errors.orgId && <FieldRow id="mf-org" title="党组织" error={errors.orgId}>{null}</FieldRow>}
      </div>
      {message && <p className="m-note m-error" role="alert">{message}</p>}
      <button type="submit" className="m-btn m-btn-primary m-block" disabled={busy}>
        {busy ? '保存中…' : '保存会议'}
      </button>
    </form>
  );
}
