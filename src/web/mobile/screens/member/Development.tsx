/** 我的发展: an applicant's development — the steps of 《中国共产党发展党员工作细则》 done with their dates and the next one — and their party-school classes (GET /api/development/mine). */
import { get } from '../../api';
import { Section } from '../../ui';
import { useLoad } from '../../useLoad';

interface Step { no: number; stage: string; title: string; date: string | null; done: boolean }
interface Application { id: number; orgName: string | null; stateLabel: string; stageLabel: string | null; inProgress: boolean; dueDate: string | null; dueItem: string | null; steps: Step[]; next: Step | null }
interface Class { id: number; name: string; startDate: string | null; endDate: string | null; requiredHours: number | null; hoursDone: number | null; completed: boolean | null; certificateNo: string | null }

export default function Development() {
  const mine = useLoad(() => get<{ applications: Application[]; classes: Class[] }>('/api/development/mine'));
  const [current] = mine.data?.applications ?? [];
  return (
    <>
      <Section title="我的发展" loading={mine.loading} error={mine.error} empty={!!mine.data && !current}>
        {current && (
          <div className="m-card" aria-label="发展进度">
            <div className="m-kv"><span>当前状态</span><span>{current.stateLabel}</span></div>
            {current.stageLabel && <div className="m-kv"><span>发展阶段</span><span>{current.stageLabel}</span></div>}
            {current.orgName && <div className="m-kv"><span>所在党支部</span><span>{current.orgName}</span></div>}
            {current.next && <div className="m-kv"><span>下一步</span><span>{current.next.title}</span></div>}
            {current.dueDate && <div className="m-kv"><span>{current.dueItem ?? '下一期限'}</span><span>{current.dueDate}</span></div>}
          </div>
        )}
      </Section>
      {current && (
        <Section title="发展步骤">
          <ol className="m-steps" aria-label="发展步骤">
            {current.steps.map((s) => (
              <li key={s.no} className={s.done ? 'm-step m-step-done' : current.next?.no === s.no ? 'm-step m-step-next' : 'm-step'}>
                <span className="m-step-title">{s.no}. {s.title}</span>
                <span className="m-item-meta">{s.done ? (s.date ?? '已完成') : current.next?.no === s.no ? '下一步' : ''}</span>
              </li>
            ))}
          </ol>
        </Section>
      )}
      {mine.data && mine.data.classes.length > 0 && (
        <Section title="党校培训班">
          <ul className="m-list" aria-label="党校培训班">
            {mine.data.classes.map((c) => (
              <li key={c.id} className="m-item">
                <div className="m-item-main">
                  <div className="m-item-title">{c.name}</div>
                  <div className="m-item-meta">{c.startDate ?? ''}{c.endDate ? ` 至 ${c.endDate}` : ''} · 已修 {c.hoursDone ?? 0}{c.requiredHours ? ` / ${c.requiredHours}` : ''} 学时</div>
                </div>
                <span className={c.completed ? 'm-tag m-tag-ok' : 'm-tag'}>{c.completed ? '已结业' : '学习中'}</span>
              </li>
            ))}
          </ul>
        </Section>
      )}
    </>
  );
}
