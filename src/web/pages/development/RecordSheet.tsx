/**
 * 发展纪实表: the whole record of one application on one printable page: the applicant, the five stages
 * and twenty-five steps with their dates, people, votes and documents, every application of the person,
 * and the approval log.
 */
import { DEVELOPMENT_STEPS, STAGE_TITLES } from '../../../shared/development/steps';
import { PaperClipOutlined } from '@ant-design/icons';
import { download } from '../../core/request/download';
import { fileRef } from '../../renderer/model';
import type { DevelopmentRecord, FieldText } from './api';

const BASIC = ['name', 'gender', 'birthDate', 'ethnicity', 'idCard', 'personNo', 'category', 'education', 'orgId', 'unitId', 'state', 'stage', 'step', 'volunteerBookNo', 'introducerIds', 'contactIds'];

/** A value of the record: text, or a document to download. */
function Detail({ f }: { f: FieldText }) {
  const file = f.url ? fileRef(f.url) : undefined;
  if (!file) return <>{f.text}</>;
  return (
    <a className="dev-file" onClick={() => void download('/api/file/download', { id: file.id }, file.name)}>
      <PaperClipOutlined /> {file.name}
    </a>
  );
}

function formatAt(at: string): string {
  const d = new Date(at);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

export function RecordSheet({ data }: { data: DevelopmentRecord }) {
  const { fields, approvals, applications } = data;
  const text = (name: string) => fields[name]?.text ?? '';
  const filled = (name: string) => !!fields[name]?.text;
  const raw = data.record;
  /**
   * The six-monthly assessments of a stage, from the log (the record keeps only the latest): as an
   * activist (step 6, before 发展对象) or on probation (step 21, from the admission).
   */
  const assessments = (no: number): string[] =>
    approvals
      .filter((a) => a.transition === 'assess')
      .map((a) => String(a.values.lastAssessDate ?? ''))
      .filter((d) => d && (no === 6 ? !raw.targetDate || d < String(raw.targetDate) : !!raw.admitDate && d >= String(raw.admitDate)));
  return (
    <article className="dev-sheet" data-record={data.record.id}>
      <h2 className="dev-sheet-title">发展党员纪实表</h2>
      <table className="dev-table dev-basic">
        <tbody>
          {Array.from({ length: Math.ceil(BASIC.length / 2) }, (_, i) => BASIC.slice(i * 2, i * 2 + 2)).map((pair) => (
            <tr key={pair[0]}>
              {pair.map((name) => (
                <FragmentCells key={name} title={fields[name]?.title ?? name} value={text(name)} />
              ))}
            </tr>
          ))}
        </tbody>
      </table>

      {STAGE_TITLES.map((stageTitle, i) => (
        <section key={stageTitle} className="dev-stage" data-stage={i + 1}>
          <h3>
            {['一', '二', '三', '四', '五'][i]}、{stageTitle}
          </h3>
          <table className="dev-table">
            <thead>
              <tr>
                <th style={{ width: 48 }}>步骤</th>
                <th style={{ width: 200 }}>内容</th>
                <th style={{ width: 110 }}>日期</th>
                <th>情况</th>
              </tr>
            </thead>
            <tbody>
              {DEVELOPMENT_STEPS.filter((s) => s.stage === i + 1).map((s) => {
                const details = s.details.filter(filled);
                const assessed = s.transition === 'assess' ? assessments(s.no) : undefined;
                const done = (s.date && filled(s.date)) || details.length > 0 || !!assessed?.length;
                return (
                  <tr key={s.no} className={done ? 'dev-step-done' : 'dev-step-open'} data-step={s.no}>
                    <td className="dev-center">{s.no}</td>
                    <td>{s.title}</td>
                    <td className="dev-center">{assessed ? assessed.join('、') || '—' : s.date ? text(s.date) || '—' : done ? '' : '—'}</td>
                    <td>
                      {details.map((name) => (
                        <span key={name} className="dev-detail">
                          {fields[name].title}：<Detail f={fields[name]} />
                        </span>
                      ))}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </section>
      ))}

      {applications.length > 1 && (
        <section className="dev-stage">
          <h3>历次入党申请</h3>
          <table className="dev-table">
            <thead>
              <tr>
                <th>递交申请日期</th>
                <th>所在党组织</th>
                <th>办理结果</th>
              </tr>
            </thead>
            <tbody>
              {applications.map((a) => (
                <tr key={a.id} className={a.current ? 'dev-current' : undefined}>
                  <td>{a.applyDate ?? '—'}</td>
                  <td>{a.orgIdName ?? ''}</td>
                  <td>
                    {a.stateLabel}
                    {a.current ? '（本次）' : ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}

      <section className="dev-stage dev-log">
        <h3>办理记录</h3>
        {approvals.length ? (
          <table className="dev-table">
            <thead>
              <tr>
                <th style={{ width: 100 }}>办理时间</th>
                <th style={{ width: 150 }}>步骤</th>
                <th style={{ width: 70 }}>结果</th>
                <th style={{ width: 200 }}>办理人</th>
                <th>意见及提醒</th>
              </tr>
            </thead>
            <tbody>
              {approvals.map((a) => (
                <tr key={a.id}>
                  <td className="dev-center">{formatAt(a.at)}</td>
                  <td>{a.title}</td>
                  <td className="dev-center">{a.resultTitle}</td>
                  <td>
                    {a.actorName}（{a.actingOrgName ?? a.levelTitle}）
                  </td>
                  <td>{[a.comment, ...a.warnings].filter(Boolean).join('；')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="dev-none">暂无办理记录</p>
        )}
      </section>
    </article>
  );
}

function FragmentCells({ title, value }: { title: string; value: string }) {
  return (
    <>
      <th>{title}</th>
      <td>{value || '—'}</td>
    </>
  );
}
