/** A course's chapters and sections, each with what I have done of it (GET /api/pschool/courses/{id}). */
import type { CourseDetail } from '../../../pages/pschool/api';
import { get } from '../../api';
import type { ScreenContext } from '../../screen';
import { Section } from '../../ui';
import { useLoad } from '../../useLoad';

const KIND = { video: '视频', doc: '文档', offline: '线下' } as const;

export default function Course({ params, go }: ScreenContext) {
  const course = useLoad(() => get<CourseDetail>(`/api/pschool/courses/${params.id}`), [params.id]);
  return (
    <Section title={course.data?.title ?? '课程'} loading={course.loading} error={course.error}>
      {course.data?.chapters.map((ch) => (
        <div key={ch.id} className="m-section">
          <h3 className="m-sub">{ch.title}</h3>
          <ul className="m-list">
            {ch.nodes.map((n) => (
              <li key={n.id} className="m-item">
                <button type="button" className="m-item-main m-item-button" disabled={n.kind === 'offline'} onClick={() => go(`study/node/${n.id}`)}>
                  <div className="m-item-title">{n.title}</div>
                  <div className="m-item-meta">{KIND[n.kind]} · {n.hours} 学时</div>
                </button>
                <span className={n.completed ? 'm-tag m-tag-ok' : 'm-tag'}>{n.completed ? '已完成' : n.furthest > 0 ? '学习中' : '未学'}</span>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </Section>
  );
}
