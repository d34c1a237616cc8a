/** 问卷调查 (`/pschool/survey/:token`): one questionnaire, by id or by the code of its share link. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Checkbox, Input, Radio, Result, Skeleton, Tag } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { PschoolNav, usePathParam } from './PschoolNav';
import { pschoolApi } from './api';

export default function SurveyPage() {
  const token = usePathParam('/pschool/survey/:token', 'token') ?? '';
  const queryClient = useQueryClient();
  const survey = useQuery({ queryKey: ['pschool', 'survey', token], queryFn: () => pschoolApi.survey(token) });
  const [answers, setAnswers] = useState<Record<string, unknown>>({});
  const send = useMutation({
    mutationFn: () => pschoolApi.answerSurvey(survey.data!.id, answers, survey.data!.anonymous),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['pschool'] }),
    // A 409 says the anonymity changed: show the questionnaire as it is now (the answers stay filled in).
    onError: () => void survey.refetch(),
  });
  const s = survey.data;
  return (
    <div className="page-container ps-page">
      <PschoolNav />
      {survey.isError ? (
        <Alert type="warning" showIcon message="问卷不存在或未发布" />
      ) : !s ? (
        <Skeleton active />
      ) : send.isSuccess || s.answeredAt ? (
        <Result status="success" title="问卷已提交，感谢您的参与" extra={<Link to="/pschool/party/center"><Button>返回培训中心</Button></Link>} />
      ) : (
        <Card title={s.title} extra={s.anonymous && <Tag>匿名</Tag>}>
          {s.description && <p className="ps-muted">{s.description}</p>}
          {s.state !== 'open' && <Alert type="info" showIcon message={s.state === 'upcoming' ? '问卷尚未开始' : '问卷已经截止'} style={{ marginBottom: 12 }} />}
          {s.items.map((item, i) => (
            <div key={item.id} className="ps-question">
              <div style={{ marginBottom: 8 }}>
                {item.mandatory && <span style={{ color: '#c0392b' }}>* </span>}
                {i + 1}. {item.title}
              </div>
              {item.type === '1' ? (
                <Radio.Group value={answers[item.id]} onChange={(e) => setAnswers({ ...answers, [item.id]: e.target.value })} options={item.options.map((o) => ({ value: o.key, label: o.text }))} />
              ) : item.type === '2' ? (
                <Checkbox.Group value={(answers[item.id] as string[]) ?? []} onChange={(v) => setAnswers({ ...answers, [item.id]: v })} options={item.options.map((o) => ({ value: o.key, label: o.text }))} />
              ) : (
                <Input.TextArea rows={3} maxLength={2000} value={(answers[item.id] as string) ?? ''} onChange={(e) => setAnswers({ ...answers, [item.id]: e.target.value })} />
              )}
            </div>
          ))}
          <div style={{ textAlign: 'center', marginTop: 16 }}>
            <Button type="primary" disabled={s.state !== 'open'} loading={send.isPending} onClick={() => send.mutate()}>提交问卷</Button>
          </div>
        </Card>
      )}
    </div>
  );
}
