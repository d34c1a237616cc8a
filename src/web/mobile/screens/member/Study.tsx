/**
 * 学习: continue where I stopped, this year's hours, my courses, exams and certificates — the party school's
 * learner API (src/server/domain/pschool), as the desktop 学习中心 uses it. Exams are taken on the full site.
 */
import { useState } from 'react';
import type { Certificate, CourseCard, ExamCard, Home } from '../../../pages/pschool/api';
import { get } from '../../api';
import { getToken } from '../../../core/auth/token';
import type { ScreenContext } from '../../screen';
import { Section } from '../../ui';
import { useLoad } from '../../useLoad';

type Continue = { nodeId: number; title: string; kind: 'video' | 'doc'; courseTitle: string; position: number; completed: boolean } | null;

const minutes = (s: number) => `${Math.floor(s / 60)}分${String(Math.floor(s % 60)).padStart(2, '0')}秒`;

/** Downloads a certificate's PDF (the request carries the session; a link could not). */
async function downloadPdf(c: Certificate): Promise<void> {
  const res = await fetch(`/api/pschool/certificates/${c.id}/pdf`, { headers: { Authorization: `Bearer ${getToken() ?? ''}` } });
  if (!res.ok) throw new Error('证书下载失败');
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = `结业证书-${c.no}.pdf`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export default function Study({ go }: ScreenContext) {
  const next = useLoad(() => get<Continue>('/api/pschool/continue'));
  const home = useLoad(() => get<Home>('/api/pschool/home'));
  const courses = useLoad(() => get<CourseCard[]>('/api/pschool/courses'));
  const exams = useLoad(() => get<ExamCard[]>('/api/pschool/exams'));
  const certificates = useLoad(() => get<Certificate[]>('/api/pschool/certificates'));
  const [error, setError] = useState('');
  const year = String(new Date().getFullYear());
  // This year's hours: the classes of this year (started or ending in it).
  const yearHours = (home.data?.classes ?? []).filter((c) => (c.startDate ?? '').startsWith(year) || (c.endDate ?? '').startsWith(year)).reduce((s, c) => s + (c.hoursDone ?? 0), 0);
  return (
    <>
      {next.data && (
        <Section title="继续学习">
          <button type="button" className="m-card m-continue" onClick={() => go(`study/node/${next.data!.nodeId}`)}>
            <div className="m-item-title">{next.data.title}</div>
            <div className="m-item-meta">{next.data.courseTitle} · {next.data.kind === 'video' ? `上次看到 ${minutes(next.data.position)}` : '文档'}</div>
            <span className="m-btn m-btn-primary">继续学习</span>
          </button>
        </Section>
      )}
      <Section title="学时" loading={home.loading} error={home.error}>
        {home.data && (
          <div className="m-card">
            <div className="m-kv"><span>{year}年已修学时</span><span>{Math.round(yearHours * 10) / 10}</span></div>
            <div className="m-kv"><span>累计已修 / 要求</span><span>{home.data.totals.hoursDone} / {home.data.totals.requiredHours}</span></div>
          </div>
        )}
      </Section>
      <Section title="我的课程" loading={courses.loading} error={courses.error} empty={courses.data?.length === 0}>
        <ul className="m-list" aria-label="我的课程">
          {courses.data?.map((c) => (
            <li key={c.id} className="m-item">
              <button type="button" className="m-item-main m-item-button" onClick={() => go(`study/course/${c.id}`)}>
                <div className="m-item-title">{c.title}</div>
                <div className="m-item-meta">{c.done}/{c.nodes} 节 · {c.hoursDone}/{c.hours} 学时</div>
              </button>
              <span className="m-amount">{c.percent}%</span>
            </li>
          ))}
        </ul>
      </Section>
      <Section title="考试" loading={exams.loading} error={exams.error} empty={exams.data?.length === 0}>
        <ul className="m-list" aria-label="考试">
          {exams.data?.map((e) => (
            <li key={e.id} className="m-item">
              <div className="m-item-main">
                <div className="m-item-title">{e.title}</div>
                <div className="m-item-meta">{e.state === 'open' ? '进行中' : e.state === 'upcoming' ? '未开始' : '已结束'}{e.best !== null ? ` · 最高 ${e.best} 分` : ''}{e.passed ? ' · 已通过' : ''}</div>
              </div>
              {e.canStart && <a className="m-btn" href="/web/pschool/exam/center">去考试</a>}
            </li>
          ))}
        </ul>
        {exams.data?.some((e) => e.canStart) && <p className="m-hint">考试请在电脑版“在线考试”中进行。</p>}
      </Section>
      <Section title="结业证书" loading={certificates.loading} error={certificates.error || error} empty={certificates.data?.length === 0}>
        <ul className="m-list" aria-label="结业证书">
          {certificates.data?.map((c) => (
            <li key={c.id} className="m-item">
              <div className="m-item-main">
                <div className="m-item-title">{c.className}</div>
                <div className="m-item-meta">{c.no} · {c.hours} 学时</div>
              </div>
              <button type="button" className="m-btn" disabled={!c.valid} onClick={() => downloadPdf(c).catch((e: Error) => setError(e.message))}>下载</button>
            </li>
          ))}
        </ul>
      </Section>
    </>
  );
}
