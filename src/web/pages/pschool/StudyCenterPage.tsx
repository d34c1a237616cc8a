/**
 * 学习中心 (`/pschool`, `/pschool/:navigation`): the courses on the shelf by audience (the navigation
 * segment: apply, active, develop, prepare, mine), where to continue, and a course's chapters and nodes
 * (`?course=<id>`) with the learner's progress.
 */
import { CheckCircleFilled, FilePdfOutlined, PlayCircleOutlined, TeamOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Drawer, Empty, Progress, Skeleton, Space, Tag, Typography } from 'antd';
import { Link, useSearchParams } from 'react-router-dom';
import { PschoolNav, clock, nodeLink, usePathParam } from './PschoolNav';
import { pschoolApi, type StudyNodeSummary } from './api';

const NAVS = [
  { key: 'all', label: '全部课程' },
  { key: 'mine', label: '我的课程' },
  { key: 'apply', label: '入党申请人' },
  { key: 'active', label: '入党积极分子' },
  { key: 'develop', label: '发展对象' },
  { key: 'prepare', label: '预备党员' },
];

function NodeRow({ node }: { node: StudyNodeSummary }) {
  const icon = node.kind === 'video' ? <PlayCircleOutlined /> : node.kind === 'doc' ? <FilePdfOutlined /> : <TeamOutlined />;
  const percent = node.length ? Math.min(100, Math.round((node.furthest * 100) / node.length)) : 0;
  return (
    <div className="ps-node" data-node={node.id}>
      {icon}
      <div className="ps-node-title">
        <div>{node.title}</div>
        <div className="ps-muted">
          {node.kind === 'offline' ? '线下授课' : node.kind === 'video' ? `视频 ${clock(node.length)}` : `文档 · 至少阅读${clock(node.length)}`} · {node.hours}学时
          {node.kind !== 'offline' && !node.completed && node.furthest > 0 && ` · 已学${percent}%`}
        </div>
      </div>
      {node.completed ? (
        <Tag icon={<CheckCircleFilled />} color="success">已完成</Tag>
      ) : node.kind !== 'offline' ? (
        <Link to={nodeLink(node)}>
          <Button size="small" type="primary">{node.furthest > 0 ? '继续' : node.kind === 'video' ? '观看' : '阅读'}</Button>
        </Link>
      ) : null}
    </div>
  );
}

function CourseDrawer({ courseId, onClose }: { courseId: number; onClose: () => void }) {
  const course = useQuery({ queryKey: ['pschool', 'course', courseId], queryFn: () => pschoolApi.course(courseId) });
  return (
    <Drawer open title={course.data?.title ?? '课程'} onClose={onClose} size="large" styles={{ wrapper: { maxWidth: '100vw' } }}>
      {!course.data ? (
        <Skeleton active />
      ) : (
        <>
          <Typography.Paragraph type="secondary">
            {course.data.teacher && <>主讲：{course.data.teacher}　</>}
            {course.data.description}
          </Typography.Paragraph>
          {course.data.chapters.map((c) => (
            <Card key={c.id} size="small" title={c.title} style={{ marginBottom: 12 }}>
              {c.nodes.length ? c.nodes.map((n) => <NodeRow key={n.id} node={n} />) : <span className="ps-muted">本章暂无内容</span>}
            </Card>
          ))}
        </>
      )}
    </Drawer>
  );
}

export default function StudyCenterPage() {
  const navigation = usePathParam('/pschool/:navigation', 'navigation');
  const nav = NAVS.some((n) => n.key === navigation) ? navigation! : 'all';
  const [search, setSearch] = useSearchParams();
  const courseId = Number(search.get('course')) || undefined;
  const courses = useQuery({ queryKey: ['pschool', 'courses', nav], queryFn: () => pschoolApi.courses(nav === 'all' ? undefined : nav) });
  const resume = useQuery({ queryKey: ['pschool', 'continue'], queryFn: pschoolApi.continueAt });

  return (
    <div className="page-container ps-page">
      <PschoolNav />
      <div className="ps-hero">
        <h2>党校学习中心</h2>
        <p>观看视频、阅读文档完成课程小节，学时自动记入所在培训班。</p>
      </div>
      {resume.data && !resume.data.completed && (
        <Card size="small" style={{ marginBottom: 16 }}>
          <Space wrap style={{ width: '100%', justifyContent: 'space-between' }}>
            <span>
              上次学到：<b>{resume.data.courseTitle}</b> · {resume.data.title}
              {resume.data.kind === 'video' && <span className="ps-muted">（{clock(resume.data.position)}）</span>}
            </span>
            <Link to={nodeLink({ id: resume.data.nodeId, kind: resume.data.kind })}>
              <Button type="primary">继续学习</Button>
            </Link>
          </Space>
        </Card>
      )}
      {/* A row that scrolls sideways on a phone rather than folding entries into a menu. */}
      <div className="ps-nav ps-subnav" role="tablist" aria-label="课程分类">
        {NAVS.map((n) => (
          <Link key={n.key} role="tab" aria-selected={n.key === nav} className={n.key === nav ? 'active' : undefined} to={n.key === 'all' ? '/pschool' : `/pschool/${n.key}`}>
            {n.label}
          </Link>
        ))}
      </div>
      {courses.isLoading ? (
        <Skeleton active />
      ) : !courses.data?.length ? (
        <Empty description={nav === 'mine' ? '还没有学习过的课程' : '暂无课程'} />
      ) : (
        <div className="ps-grid">
          {courses.data.map((c) => (
            <Card key={c.id} hoverable className="ps-course" onClick={() => setSearch({ course: String(c.id) })}>
              <div className="ps-card-title">{c.title}</div>
              <div className="ps-muted" style={{ margin: '4px 0 8px' }}>
                {c.teacher ?? '党校'} · {c.nodes}个小节 · {c.hours}学时
              </div>
              <Progress percent={c.percent} size="small" />
              <div className="ps-muted">已获{c.hoursDone}学时</div>
            </Card>
          ))}
        </div>
      )}
      {courseId && <CourseDrawer courseId={courseId} onClose={() => setSearch({})} />}
    </div>
  );
}
