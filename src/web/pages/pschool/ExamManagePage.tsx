/**
 * 考试管理: exams (the module's list and forms, with paper rules as children), the marking queue of
 * short answers, and each exam's results, export, per-question statistics and re-marking.
 */
import { DownloadOutlined, ReloadOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Col, Drawer, Empty, Form, Input, InputNumber, Row, Space, Statistic, Table, Tag, Typography } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { parseTime } from '../../../shared/format';
import { useHasPermission } from '../../core/Permission';
import { download } from '../../core/request/download';
import { PschoolAdminTabs } from './PschoolAdminTabs';
import { RecordPicker } from './RecordPicker';
import { pschoolAdminApi } from './api';

const ModulePage = lazy(() => import('../../renderer/ModulePage'));
const time = (t: string | null) => (t ? parseTime(t, '{y}-{m}-{d} {h}:{i}') : '');

function MarkingDrawer({ sessionId, onClose }: { sessionId: number; onClose: () => void }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const sheet = useQuery({ queryKey: ['pschool-admin', 'marking', sessionId], queryFn: () => pschoolAdminApi.markingSheet(sessionId) });
  const [form] = Form.useForm();
  const mark = useMutation({
    mutationFn: (marks: Record<string, number>) => pschoolAdminApi.mark(sessionId, marks),
    onSuccess: (r) => {
      message.success(r.status === 3 ? `评分完成：${r.score}分，${r.passed ? '及格' : '不及格'}` : '已保存');
      void queryClient.invalidateQueries({ queryKey: ['pschool-admin'] });
      onClose();
    },
  });
  const s = sheet.data;
  return (
    <Drawer open onClose={onClose} size="large" title={s ? `阅卷：${s.name} · ${s.examTitle}` : '阅卷'} maskClosable={false} keyboard={false}
      extra={<Button type="primary" loading={mark.isPending} onClick={() => form.submit()}>提交评分</Button>}>
      {s && (
        <Form form={form} layout="vertical" initialValues={Object.fromEntries(s.items.map((i) => [String(i.questionId), i.score ?? undefined]))}
          onFinish={(v: Record<string, number>) => mark.mutate(Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined && x !== null)))}>
          <Typography.Paragraph>客观题得分：<b>{s.objectiveScore}</b> 分</Typography.Paragraph>
          {s.items.map((i, n) => (
            <Card key={i.questionId} size="small" style={{ marginBottom: 12 }} title={`${n + 1}. ${i.stem}`}>
              <div className="ps-muted">参考答案：{i.reference}</div>
              <Typography.Paragraph style={{ background: '#fafafa', padding: 8, marginTop: 8, whiteSpace: 'pre-wrap' }} data-testid="marking-answer">{String(i.answer || '（未作答）')}</Typography.Paragraph>
              <Form.Item name={String(i.questionId)} label={`得分（满分${i.maxScore}分）`} rules={[{ required: true, message: '请给出得分' }]}>
                <InputNumber min={0} max={i.maxScore} step={0.5} style={{ width: 160 }} />
              </Form.Item>
            </Card>
          ))}
        </Form>
      )}
    </Drawer>
  );
}

function MarkingQueue() {
  const [examId, setExamId] = useState<number>();
  const [open, setOpen] = useState<number>();
  const queue = useQuery({ queryKey: ['pschool-admin', 'queue', examId], queryFn: () => pschoolAdminApi.markingQueue(examId) });
  return (
    <>
      <Space style={{ marginBottom: 12 }}>
        <RecordPicker module="exam" placeholder="全部考试" value={examId} onChange={setExamId} />
        <Button icon={<ReloadOutlined />} onClick={() => void queue.refetch()}>刷新</Button>
      </Space>
      <Table rowKey="id" size="small" loading={queue.isLoading} dataSource={queue.data ?? []} pagination={{ pageSize: 20 }} scroll={{ x: 700 }} locale={{ emptyText: '没有待阅的答卷' }}
        columns={[
          { title: '考试', dataIndex: 'examTitle' },
          { title: '考生', render: (_, r) => `${r.name}（${r.username}）` },
          { title: '第几次', dataIndex: 'attempt', width: 80 },
          { title: '交卷时间', render: (_, r) => time(r.submittedAt) },
          { title: '客观题得分', dataIndex: 'score', width: 100 },
          { title: '待评题数', dataIndex: 'pending', width: 90 },
          { title: '操作', width: 90, render: (_, r) => <Button type="link" onClick={() => setOpen(r.id)}>阅卷</Button> },
        ]} />
      {open && <MarkingDrawer sessionId={open} onClose={() => setOpen(undefined)} />}
    </>
  );
}

function Results() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [examId, setExamId] = useState<number>();
  const [page, setPage] = useState(0);
  const [name, setName] = useState('');
  const canEdit = useHasPermission(['exam:edit']);
  const canExport = useHasPermission(['exam:export']);
  const results = useQuery({ queryKey: ['pschool-admin', 'results', examId, page, name], queryFn: () => pschoolAdminApi.results(examId!, page, 20, name || undefined), enabled: !!examId });
  const stats = useQuery({ queryKey: ['pschool-admin', 'stats', examId], queryFn: () => pschoolAdminApi.statistics(examId!), enabled: !!examId });
  const remark = useMutation({
    mutationFn: () => pschoolAdminApi.remark(examId!),
    onSuccess: (r) => {
      message.success(`已重新评分 ${r.sheets} 份答卷，${r.changed} 份成绩有变化`);
      void queryClient.invalidateQueries({ queryKey: ['pschool-admin'] });
    },
  });
  return (
    <>
      <Space wrap style={{ marginBottom: 12 }}>
        <RecordPicker module="exam" placeholder="选择考试" value={examId} onChange={(v) => { setExamId(v); setPage(0); }} />
        {examId && <Input.Search allowClear placeholder="按姓名或账号查找" style={{ width: 200 }} onSearch={(v) => { setName(v.trim()); setPage(0); }} />}
        {examId && canExport && <Button icon={<DownloadOutlined />} onClick={() => void download(`/api/pschool/exams/${examId}/results/export`, undefined, '考试成绩.xlsx')}>导出成绩</Button>}
        {examId && canEdit && <Button loading={remark.isPending} onClick={() => remark.mutate()}>按题库答案重新评分</Button>}
      </Space>
      {!examId ? <Empty description="选择考试查看成绩与统计" /> : (
        <>
          {stats.data && (
            <Row gutter={[12, 12]} style={{ marginBottom: 12 }}>
              <Col xs={12} md={4}><Card size="small"><Statistic title="答卷" value={stats.data.sheets} /></Card></Col>
              <Col xs={12} md={4}><Card size="small"><Statistic title="考生" value={stats.data.people} /></Card></Col>
              <Col xs={12} md={4}><Card size="small"><Statistic title="待阅卷" value={stats.data.marking} /></Card></Col>
              <Col xs={12} md={4}><Card size="small"><Statistic title="平均分" value={stats.data.average ?? '-'} /></Card></Col>
              <Col xs={12} md={4}><Card size="small"><Statistic title="最高/最低" value={`${stats.data.highest ?? '-'} / ${stats.data.lowest ?? '-'}`} /></Card></Col>
              <Col xs={12} md={4}><Card size="small"><Statistic title="及格率" value={stats.data.passRate} suffix="%" /></Card></Col>
            </Row>
          )}
          <Table rowKey="id" size="small" loading={results.isLoading} dataSource={results.data?.content ?? []} scroll={{ x: 800 }}
            pagination={{ current: page + 1, pageSize: 20, total: results.data?.totalElements ?? 0, onChange: (p) => setPage(p - 1), showSizeChanger: false }}
            columns={[
              { title: '姓名', dataIndex: 'name' },
              { title: '账号', dataIndex: 'username' },
              { title: '所在党组织', dataIndex: 'orgName', ellipsis: true },
              { title: '第几次', dataIndex: 'attempt', width: 70 },
              { title: '交卷时间', render: (_, r) => time(r.submittedAt) },
              { title: '得分', dataIndex: 'score', width: 70 },
              { title: '结果', width: 90, render: (_, r) => (r.passed === null ? <Tag>{r.statusLabel}</Tag> : r.passed ? <Tag color="success">及格</Tag> : <Tag color="error">不及格</Tag>) },
            ]} />
          <h3 style={{ marginTop: 16 }}>逐题统计</h3>
          <Table rowKey="questionId" size="small" dataSource={stats.data?.questions ?? []} pagination={{ pageSize: 20 }} scroll={{ x: 800 }}
            columns={[
              { title: '题目', dataIndex: 'stem', ellipsis: true },
              { title: '题型', dataIndex: 'typeLabel', width: 80 },
              { title: '分值', dataIndex: 'fullScore', width: 60 },
              { title: '出现次数', dataIndex: 'sheets', width: 80 },
              { title: '作答', dataIndex: 'answered', width: 60 },
              { title: '全对', dataIndex: 'correct', width: 60 },
              { title: '正确率', width: 80, render: (_, r) => `${r.correctRate}%` },
              { title: '平均得分', dataIndex: 'average', width: 80 },
            ]} />
        </>
      )}
    </>
  );
}

export default function ExamManagePage({ title }: { title?: string }) {
  const canMark = useHasPermission(['exam:mark']);
  return (
    <PschoolAdminTabs
      items={[
        { key: 'exams', label: '考试', children: <Suspense><ModulePage moduleId="exam" title={title} /></Suspense> },
        ...(canMark ? [{ key: 'marking', label: '阅卷', children: <div className="page-container"><MarkingQueue /></div> }] : []),
        { key: 'results', label: '成绩与统计', children: <div className="page-container"><Results /></div> },
      ]}
    />
  );
}
