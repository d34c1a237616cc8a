/**
 * One timed exam sheet. The deadline is the server's (the page only shows the time left, corrected by
 * the server's clock); every answer is saved shortly after it is given, and retried while the connection
 * is lost or an app server is down (exam-retry.ts); a reload resumes the same sheet with its answers and
 * deadline. At the deadline the sheet is submitted, with every answer given (not only those not yet saved:
 * a save in flight may be lost with its server), and the submission retried until a server answers it.
 */
import { useMutation } from '@tanstack/react-query';
import { Alert, App, Button, Card, Checkbox, Input, Radio, Result, Space, Spin, Tag } from 'antd';
import type { AxiosError } from 'axios';
import { useEffect, useMemo, useRef, useState } from 'react';
import { QuestionTypeLabel } from '../../../shared/constants';
import { clock } from './PschoolNav';
import { retriable, untilAnswered } from './exam-retry';
import { pschoolApi, type ExamQuestion, type ExamSheet as Sheet, type SubmitResult } from './api';

const SAVE_DELAY = 800;
const RETRY_DELAY = 5000;

const statusOf = (error: unknown) => (error as AxiosError).response?.status;

function QuestionInput({ q, value, onChange, disabled }: { q: ExamQuestion; value: unknown; onChange: (v: unknown) => void; disabled: boolean }) {
  const options = q.options.map((o) => ({ value: o.key, label: `${o.key}. ${o.text}` }));
  switch (q.type) {
    case 0:
      return <Radio.Group disabled={disabled} value={value} onChange={(e) => onChange(e.target.value)} options={options} />;
    case 1:
      return <Checkbox.Group disabled={disabled} value={typeof value === 'string' ? value.split('') : []} onChange={(v) => onChange([...v].sort().join(''))} options={options} />;
    case 2:
      return <Radio.Group disabled={disabled} value={value} onChange={(e) => onChange(e.target.value)} options={[{ value: '正确', label: '正确' }, { value: '错误', label: '错误' }]} />;
    case 3: {
      const blanks = Array.isArray(value) ? (value as string[]) : [];
      return (
        <Space direction="vertical" style={{ width: '100%' }}>
          {Array.from({ length: q.blanks ?? 1 }, (_, i) => (
            <Input key={i} disabled={disabled} maxLength={200} placeholder={`第${i + 1}空`} value={blanks[i] ?? ''} onChange={(e) => onChange(Array.from({ length: q.blanks ?? 1 }, (_x, j) => (j === i ? e.target.value : blanks[j] ?? '')))} />
          ))}
        </Space>
      );
    }
    default:
      return <Input.TextArea disabled={disabled} rows={4} maxLength={5000} showCount value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)} />;
  }
}

function Outcome({ result, onBack }: { result: SubmitResult; onBack: () => void }) {
  const pendingMarking = result.status === 2;
  return (
    <Result
      status={pendingMarking ? 'info' : result.passed ? 'success' : 'warning'}
      title={pendingMarking ? '已交卷，简答题待阅卷' : result.passed ? '考试通过' : '未通过'}
      subTitle={
        <span data-testid="pschool-exam-result">
          {pendingMarking ? `客观题得分 ${result.score} 分，阅卷完成后公布成绩` : `得分 ${result.score} / ${result.totalScore} 分（及格 ${result.passMark} 分）`}
          {result.late && '。考试时间已到，以截止前保存的答案为准'}
        </span>
      }
      extra={<Button type="primary" onClick={onBack}>返回考试列表</Button>}
    />
  );
}

export function ExamSheet({ examId, onBack }: { examId: number; onBack: () => void }) {
  const { modal, message } = App.useApp();
  const [sheet, setSheet] = useState<Sheet>();
  const [answers, setAnswers] = useState<Record<string, unknown>>({});
  const [saveState, setSaveState] = useState<'saved' | 'saving' | 'retrying'>('saved');
  const [now, setNow] = useState(Date.now());
  const [result, setResult] = useState<SubmitResult>();
  const pending = useRef<Record<string, unknown>>({});
  /** Every answer given on this page (the resumed ones included): what a submission sends. */
  const given = useRef<Record<string, unknown>>({});
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const offset = useRef(0);

  const start = useMutation({
    // Starting again answers the same sheet: retried while no server answers.
    mutationFn: () => untilAnswered(() => pschoolApi.start(examId), statusOf),
    onSuccess: (s) => {
      given.current = { ...(s.answers ?? {}) };
      offset.current = new Date(s.serverTime).getTime() - Date.now();
      setSheet(s);
      setAnswers(s.answers ?? {});
    },
  });
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => start.mutate(), [examId]);

  const flush = () => {
    clearTimeout(timer.current);
    const batch = pending.current;
    if (!Object.keys(batch).length) return;
    pending.current = {};
    setSaveState('saving');
    pschoolApi
      .save(examId, batch)
      .then(() => setSaveState(Object.keys(pending.current).length ? 'saving' : 'saved'))
      .catch((error: AxiosError<{ message?: string }>) => {
        if (!retriable(error.response?.status)) {
          message.error(error.response?.data?.message ?? '答案未保存');
          return;
        }
        // No answer from the server: keep the answers and try again.
        pending.current = { ...batch, ...pending.current };
        setSaveState('retrying');
        timer.current = setTimeout(flush, RETRY_DELAY);
      });
  };

  const answer = (q: ExamQuestion, v: unknown) => {
    setAnswers((a) => ({ ...a, [q.id]: v }));
    pending.current[q.id] = v;
    given.current[q.id] = v;
    clearTimeout(timer.current);
    timer.current = setTimeout(flush, SAVE_DELAY);
  };

  const submit = useMutation({
    mutationFn: () => {
      clearTimeout(timer.current);
      pending.current = {};
      const all = { ...given.current };
      return untilAnswered(() => pschoolApi.submit(examId, all), statusOf, { onRetry: () => setSaveState('retrying') });
    },
    onError: (error: AxiosError<{ message?: string }>) => message.error(error.response?.data?.message ?? '交卷失败，请重试'),
    onSuccess: setResult,
  });

  const deadline = sheet ? new Date(sheet.deadline).getTime() : 0;
  const left = sheet ? Math.max(0, (deadline - (now + offset.current)) / 1000) : 0;
  useEffect(() => {
    if (!sheet || result) return;
    const tick = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(tick);
  }, [sheet, result]);
  useEffect(() => {
    if (sheet && !result && left <= 0 && !submit.isPending) submit.mutate();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [left <= 0, sheet, result]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const answered = useMemo(() => sheet?.questions.filter((q) => answers[q.id] !== undefined && answers[q.id] !== '' && !(Array.isArray(answers[q.id]) && !(answers[q.id] as string[]).some(Boolean))).length ?? 0, [sheet, answers]);

  if (result) return <Outcome result={result} onBack={onBack} />;
  if (start.isError) return <Alert type="warning" showIcon message={(start.error as AxiosError<{ message?: string }>).response?.data?.message ?? '无法开始考试'} action={<Button onClick={onBack}>返回</Button>} />;
  if (!sheet) return <Spin />;

  const confirmSubmit = () =>
    modal.confirm({
      title: '确认交卷',
      content: answered < sheet.questions.length ? `还有 ${sheet.questions.length - answered} 题未作答，确定交卷吗？` : '交卷后不能修改答案，确定交卷吗？',
      okText: '交卷',
      cancelText: '继续作答',
      onOk: () => submit.mutateAsync(),
    });

  return (
    <Card title={sheet.title} extra={<Tag>第{sheet.attempt}次作答</Tag>}>
      <div className="ps-exam-bar">
        <span>
          剩余时间 <span className="ps-timer" data-testid="pschool-exam-timer">{clock(left)}</span>
        </span>
        <span className="ps-muted">
          已答 {answered}/{sheet.questions.length} · 满分 {sheet.totalScore} · {saveState === 'saved' ? '答案已自动保存' : saveState === 'saving' ? '正在保存…' : '网络中断，正在重试保存…'}
        </span>
        <Button type="primary" onClick={confirmSubmit} loading={submit.isPending}>交卷</Button>
      </div>
      {sheet.questions.map((q, i) => (
        <div className="ps-question" key={q.id} data-question={q.id}>
          <div style={{ marginBottom: 8 }}>
            <b>{i + 1}.</b> <Tag>{QuestionTypeLabel[q.type]}</Tag>
            {q.stem} <span className="ps-muted">（{q.score}分）</span>
          </div>
          <QuestionInput q={q} value={answers[q.id]} onChange={(v) => answer(q, v)} disabled={submit.isPending} />
        </div>
      ))}
      <div style={{ textAlign: 'center', marginTop: 16 }}>
        <Button type="primary" size="large" onClick={confirmSubmit} loading={submit.isPending}>交卷</Button>
      </div>
    </Card>
  );
}
