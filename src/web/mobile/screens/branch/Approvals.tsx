/**
 * 待审批: the records waiting for me in every `x-workflow` module (`GET /api/workflow/waiting`), and one record's
 * screen: its main fields, the steps open to me now with their fields and refusals (`GET .../transitions`), taken
 * with a comment (`POST .../transitions/{step}`: the workflow engine's own rules and Chinese refusals), and the log.
 */
import { useEffect, useState } from 'react';
import type { ModuleSchema } from '../../../../shared/module-schema/types';
import { listColumnFields } from '../../../../shared/module-schema/fields';
import { displayText } from '../../../renderer/model';
import { ApiError, get, post } from '../../api';
import { FieldRow, MobileFields, fieldErrors, mobileKind, useDictOptions, type MobileField } from '../../form/MobileFields';
import { Section, timeText } from '../../ui';
import { useLoad } from '../../useLoad';

interface WaitingModule {
  module: string;
  title: string;
  total: number;
  records: { id: number; name: string; stateTitle: string }[];
}

/** A step the caller may take now, as the transitions API answers it. */
interface OpenStep {
  id: string;
  title: string;
  toTitle: string;
  result: 'pass' | 'return' | 'reject' | 'withdraw';
  /** Who takes it: `self` is the record's own person (a member reporting on their own task), not an approver. */
  level: string;
  levelTitle: string;
  fields: { name: string; title: string; required: boolean }[];
  comment: 'required' | 'optional' | 'none';
  warnings: string[];
  /** What the step finds or will do (a round's candidates): information, not a warning. */
  notes?: string[];
  blocked: string[];
}

interface Approval {
  id: number;
  title: string;
  resultTitle: string;
  actorName: string;
  actingOrgName: string | null;
  comment: string;
  at: string;
}

export function ApprovalList({ go }: { go: (path: string) => void }) {
  const waiting = useLoad(() => get<WaitingModule[]>('/api/workflow/waiting'));
  return (
    <>
      {waiting.loading || waiting.error || waiting.data?.length === 0 ? (
        <Section title="待审批" loading={waiting.loading} error={waiting.error} empty />
      ) : (
        waiting.data!.map((m) => (
          <Section key={m.module} title={`${m.title}（${m.total}）`}>
            <ul className="m-list" aria-label={m.title}>
              {m.records.map((r) => (
                <li key={r.id} className="m-item">
                  <button type="button" className="m-item-main m-item-button" onClick={() => go(`approvals/${m.module}/${r.id}`)}>
                    <div className="m-item-title">{r.name}</div>
                    <div className="m-item-meta">{r.stateTitle}</div>
                  </button>
                  <span className="m-chevron" aria-hidden>›</span>
                </li>
              ))}
            </ul>
            {m.total > m.records.length && <p className="m-note">还有 {m.total - m.records.length} 条，请在电脑端查看</p>}
          </Section>
        ))
      )}
    </>
  );
}

const RESULT_CLASS: Record<OpenStep['result'], string> = { pass: 'm-btn m-btn-primary', return: 'm-btn', reject: 'm-btn m-btn-danger', withdraw: 'm-btn' };

/** One step's form: its fields (the module schema's, as the phone shows them), the comment, the refusals. */
function StepForm({ module, recordId, schema, step, version, onDone, onCancel }: { module: string; recordId: number; schema: ModuleSchema; step: OpenStep; version: number; onDone: (text: string) => void; onCancel: () => void }) {
  const [values, setValues] = useState<Record<string, unknown>>({});
  const [comment, setComment] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const fields: MobileField[] = step.fields.flatMap((f) => {
    const s = schema.properties[f.name];
    return s ? [{ name: f.name, schema: { ...s, title: f.title || s.title }, required: f.required }] : [];
  });
  const shown = fields.filter((f) => mobileKind(f.schema));
  // A required field the phone cannot show: the step is taken on the full site.
  const desktopOnly = fields.filter((f) => f.required && !mobileKind(f.schema));
  const dicts = useDictOptions(shown.flatMap((f) => (f.schema['x-dict'] ? [f.schema['x-dict']] : [])));
  const submit = async () => {
    setBusy(true);
    setErrors({});
    setMessage('');
    try {
      const body = { version, comment, values: Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined && v !== '')) };
      const answer = await post<{ warnings?: string[]; notes?: string[] }>(`/api/m/${encodeURIComponent(module)}/${recordId}/transitions/${encodeURIComponent(step.id)}`, body);
      onDone(`已办理：${step.title}${answer.notes?.length ? `。${answer.notes.join('')}` : ''}${answer.warnings?.length ? `（提示：${answer.warnings.join('；')}）` : ''}`);
    } catch (e) {
      setMessage((e as Error).message);
      if (e instanceof ApiError) setErrors(fieldErrors(e.fields));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="m-card m-form" aria-label={step.title} noValidate onSubmit={(e) => { e.preventDefault(); void submit(); }}>
      <h3 className="m-step-title">{step.title}<span className="m-item-meta"> → {step.toTitle}</span></h3>
      {step.notes?.map((n) => <p key={n} className="m-note">{n}</p>)}
      {step.warnings.map((w) => <p key={w} className="m-warn-box">{w}</p>)}
      {desktopOnly.length > 0 ? (
        <p className="m-note">此步骤需要填写{desktopOnly.map((f) => f.schema.title).join('、')}，请在<a href="/web/">电脑端</a>办理</p>
      ) : (
        <>
          <MobileFields fields={shown} values={values} onChange={(n, v) => setValues((x) => ({ ...x, [n]: v }))} errors={errors} dicts={dicts} moduleName={module} idPrefix={`step-${step.id}`} />
          {step.comment !== 'none' && (
            <FieldRow id={`step-${step.id}-comment`} title={step.level === 'self' ? '说明' : '审批意见'} required={step.comment === 'required'} error={errors.comment}>
              <textarea id={`step-${step.id}-comment`} className="m-input m-textarea" rows={3} maxLength={500} value={comment} onChange={(e) => setComment(e.target.value)} />
            </FieldRow>
          )}
          {message && <p className="m-note m-error" role="alert">{message}</p>}
          <button type="submit" className={`${RESULT_CLASS[step.result]} m-block`} disabled={busy}>
            {busy ? '提交中…' : `确认${step.title}`}
          </button>
        </>
      )}
      <button type="button" className="m-btn m-block" onClick={onCancel}>
        取消
      </button>
    </form>
  );
}

/** One record waiting for me: its main fields, the steps open now (refused ones with the reason), the log. */
export function ApprovalRecord({ module, id, setTitle }: { module: string; id: string; setTitle: (title: string) => void }) {
  const recordId = Number(id);
  const base = `/api/m/${encodeURIComponent(module)}`;
  const meta = useLoad(() => get<{ schema: ModuleSchema }>(`${base}/schema`), [module]);
  const record = useLoad(() => get<Record<string, unknown> & { version: number }>(`${base}/${recordId}`), [module, recordId]);
  const steps = useLoad(() => get<OpenStep[]>(`${base}/${recordId}/transitions`), [module, recordId]);
  const log = useLoad(() => get<Approval[]>(`${base}/${recordId}/approvals`), [module, recordId]);
  const [open, setOpen] = useState<string | null>(null);
  const [done, setDone] = useState('');
  const schema = meta.data?.schema;
  const r = record.data;
  const finished = (text: string) => {
    setOpen(null);
    setDone(text);
    record.reload();
    steps.reload();
    log.reload();
    window.scrollTo(0, 0);
  };
  const main = schema ? listColumnFields(schema).filter((n) => schema.properties[n]) : [];
  // A member's own report (every open step is the record's own person's) is not an approval (issue 43.13).
  const ownTask = !!steps.data?.length && steps.data.every((s) => s.level === 'self');
  useEffect(() => {
    if (steps.data) setTitle(ownTask ? '办理' : '审批');
  }, [steps.data, ownTask, setTitle]);
  return (
    <>
      {done && <p className="m-done" role="status">{done}</p>}
      <Section title={schema?.title ?? '记录'} loading={meta.loading || record.loading} error={meta.error || record.error}>
        {schema && r && (
          <div className="m-card" aria-label="记录信息">
            {main.map((n) => (
              <div key={n} className="m-kv">
                <span>{schema.properties[n].title}</span>
                <span>{displayText(r, n, schema.properties[n]) || '—'}</span>
              </div>
            ))}
          </div>
        )}
      </Section>
      <Section title="可办理的步骤" loading={steps.loading} error={steps.error} empty={steps.data?.length === 0}>
        {schema && r && steps.data && (
          <div className="m-steps">
            {steps.data.map((s) =>
              open === s.id ? (
                <StepForm key={s.id} module={module} recordId={recordId} schema={schema} step={s} version={r.version} onDone={finished} onCancel={() => setOpen(null)} />
              ) : (
                <div key={s.id} className="m-step">
                  <button type="button" className={`${RESULT_CLASS[s.result]} m-block`} disabled={s.blocked.length > 0} onClick={() => { setDone(''); setOpen(s.id); }}>
                    {s.title}
                  </button>
                  {s.blocked.map((b) => <p key={b} className="m-field-error">{b}</p>)}
                </div>
              ),
            )}
          </div>
        )}
      </Section>
      <Section title={ownTask ? '办理记录' : '审批记录'} loading={log.loading} error={log.error} empty={log.data?.length === 0}>
        <ul className="m-list" aria-label="审批记录">
          {log.data?.slice().reverse().map((a) => (
            <li key={a.id} className="m-item">
              <div className="m-item-main">
                <div className="m-item-title">{a.title} · {a.resultTitle}</div>
                {a.comment && <div className="m-item-text">{a.comment}</div>}
                <div className="m-item-meta">{a.actorName}{a.actingOrgName ? `（${a.actingOrgName}）` : ''} · {timeText(a.at)}</div>
              </div>
            </li>
          ))}
        </ul>
      </Section>
    </>
  );
}
