/**
 * 我的档案: my member record, read-only (the ID number masked), and 申请修改: a change request the branch checks
 * (module member-change-request: created, then its 提交申请 step), with my requests and their state.
 */
import { useState } from 'react';
import { get, post, type Page } from '../../api';
import { Section } from '../../ui';
import { useLoad } from '../../useLoad';

interface Me {
  member: { id: number; name: string; fields: { name: string; title: string; text: string }[] } | null;
  changeable?: { title: string; current: string; options?: string[]; format?: string }[];
}

interface Request {
  id: number;
  version: number;
  field: string;
  oldValue: string | null;
  newValue: string;
  reason: string;
  state: number;
  stateLabel: string;
  applyDate: string | null;
}

const MODULE = '/api/m/member-change-request';

function RequestForm({ me, onDone }: { me: Me; onDone: () => void }) {
  const [title, setTitle] = useState('');
  const [value, setValue] = useState('');
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const item = me.changeable?.find((c) => c.title === title);
  const send = async () => {
    setBusy(true);
    setError('');
    try {
      const created = await post<Request>(MODULE, { field: title, newValue: value, reason });
      await post(`${MODULE}/${created.id}/transitions/submit`, { version: created.version });
      onDone();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="m-card m-form" aria-label="申请修改" onSubmit={(e) => { e.preventDefault(); void send(); }}>
      <label className="m-field">
        <span>修改项目</span>
        <select value={title} onChange={(e) => { setTitle(e.target.value); setValue(''); }} required>
          <option value="">请选择</option>
          {me.changeable?.map((c) => <option key={c.title} value={c.title}>{c.title}</option>)}
        </select>
      </label>
      {item && <div className="m-kv"><span>原值</span><span>{item.current || '（空）'}</span></div>}
      {item && (
        <label className="m-field">
          <span>新值</span>
          {item.options ? (
            <select value={value} onChange={(e) => setValue(e.target.value)} required>
              <option value="">请选择</option>
              {item.options.map((o) => <option key={o} value={o}>{o}</option>)}
            </select>
          ) : (
            <input type={item.format === 'date' ? 'date' : item.format === 'mobile' ? 'tel' : 'text'} value={value} onChange={(e) => setValue(e.target.value)} required maxLength={200} />
          )}
        </label>
      )}
      <label className="m-field">
        <span>申请理由</span>
        <textarea value={reason} onChange={(e) => setReason(e.target.value)} required maxLength={500} rows={3} />
      </label>
      <p className="m-hint">身份证号、入党日期等党籍信息只能由党组织依据档案材料修改。</p>
      {error && <p className="m-note m-error" role="alert">{error}</p>}
      <button type="submit" className="m-btn m-btn-primary m-block" disabled={busy || !title || !value || !reason}>提交申请</button>
    </form>
  );
}

export default function Record() {
  const me = useLoad(() => get<Me>('/api/member/me'));
  const requests = useLoad(() => post<Page<Request>>(`${MODULE}/list?size=20`, {}));
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState('');
  const resubmit = async (r: Request) => {
    setError('');
    try {
      await post(`${MODULE}/${r.id}/transitions/submit`, { version: r.version });
      requests.reload();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const member = me.data?.member;
  return (
    <>
      <Section title="我的档案" loading={me.loading} error={me.error}>
        {me.data && !member ? (
          <p className="m-note">您的账号没有关联党员档案</p>
        ) : (
          <div className="m-card" aria-label="党员信息">
            {member?.fields.map((f) => (
              <div key={f.name} className="m-kv"><span>{f.title}</span><span>{f.text || '—'}</span></div>
            ))}
          </div>
        )}
      </Section>
      {member && (
        <Section title="信息修改申请" extra={!asking && <button type="button" className="m-link" onClick={() => setAsking(true)}>申请修改</button>}>
          {asking && me.data && <RequestForm me={me.data} onDone={() => { setAsking(false); requests.reload(); }} />}
          {error && <p className="m-note m-error" role="alert">{error}</p>}
          {requests.data?.content.length ? (
            <ul className="m-list" aria-label="我的修改申请">
              {requests.data.content.map((r) => (
                <li key={r.id} className="m-item">
                  <div className="m-item-main">
                    <div className="m-item-title">{r.field}：{r.oldValue || '（空）'} → {r.newValue}</div>
                    <div className="m-item-meta">{r.stateLabel}{r.applyDate ? ` · ${r.applyDate} 申请` : ''}</div>
                  </div>
                  {r.state === -1 && <button type="button" className="m-btn" onClick={() => void resubmit(r)}>提交</button>}
                </li>
              ))}
            </ul>
          ) : (
            !asking && <p className="m-note">暂无申请</p>
          )}
        </Section>
      )}
    </>
  );
}
