/** 在线考试 (`/pschool/exam/center`): the learner's exams, and one exam sheet at `?examId=`. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Skeleton, Space, Tag } from 'antd';
import { useSearchParams } from 'react-router-dom';
import { parseTime } from '../../../shared/format';
import { ExamSheet } from './ExamSheet';
import { PschoolNav } from './PschoolNav';
import { pschoolApi, type ExamCard } from './api';

const STATE: Record<ExamCard['state'], [string, string]> = { upcoming: ['未开始', 'default'], open: ['进行中', 'processing'], ended: ['已结束', 'default'] };

function ExamItem({ exam, onStart }: { exam: ExamCard; onStart: () => void }) {
  const { modal } = App.useApp();
  const [label, color] = STATE[exam.state];
  // A started sheet resumes; a new one uses an attempt, so it is asked first (issue 33.12).
  const start = () =>
    exam.open
      ? onStart()
      : modal.confirm({
          title: exam.attempts ? '开始补考' : '开始考试',
          content: `开始后将使用 1 次作答机会（已作答 ${exam.attempts}/${exam.maxAttempts} 次），限时 ${exam.duration} 分钟，计时开始后不会暂停。确定开始吗？`,
          okText: exam.attempts ? '开始补考' : '开始考试',
          cancelText: '暂不开始',
          onOk: onStart,
        });
  return (
    <Card size="small" data-exam={exam.id}>
      <div className="ps-card-title">{exam.title}</div>
      <div className="ps-muted" style={{ margin: '4px 0' }}>
        {parseTime(exam.startAt, '{y}-{m}-{d} {h}:{i}')} 至 {parseTime(exam.endAt, '{y}-{m}-{d} {h}:{i}')} · 限时{exam.duration}分钟 · 满分{exam.totalScore ?? '-'}，{exam.passMark}分及格
      </div>
      <Space wrap>
        <Tag color={color}>{label}</Tag>
        {exam.passed && <Tag color="success">已通过 {exam.best}分</Tag>}
        {!exam.passed && exam.best !== null && <Tag color="warning">最高 {exam.best}分</Tag>}
        {exam.marking && <Tag color="blue">待阅卷</Tag>}
        <span className="ps-muted">已作答 {exam.attempts}/{exam.maxAttempts} 次</span>
      </Space>
      {exam.canStart && (
        <div style={{ marginTop: 8 }}>
          <Button type="primary" onClick={start}>{exam.open ? '继续作答' : exam.attempts ? '补考' : '开始考试'}</Button>
        </div>
      )}
    </Card>
  );
}

export default function ExamCenterPage() {
  const [search, setSearch] = useSearchParams();
  const examId = Number(search.get('examId')) || undefined;
  const queryClient = useQueryClient();
  const exams = useQuery({ queryKey: ['pschool', 'exams'], queryFn: pschoolApi.exams, enabled: !examId });
  const back = () => {
    setSearch({});
    void queryClient.invalidateQueries({ queryKey: ['pschool'] });
  };
  return (
    <div className="page-container ps-page">
      <PschoolNav />
      {examId ? (
        <ExamSheet key={examId} examId={examId} onBack={back} />
      ) : exams.isLoading ? (
        <Skeleton active />
      ) : !exams.data?.length ? (
        <Empty description="暂无考试" />
      ) : (
        <div className="ps-grid">
          {exams.data.map((e) => (
            <ExamItem key={e.id} exam={e} onStart={() => setSearch({ examId: String(e.id) })} />
          ))}
        </div>
      )}
    </div>
  );
}
