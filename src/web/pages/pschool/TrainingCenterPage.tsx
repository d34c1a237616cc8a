/**
 * 培训中心 (`/pschool/party/center`): the learner's classes with schedule, place and teachers; classes
 * open for registration (an administrator admits); questionnaires to answer.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Descriptions, Empty, Form, Input, Modal, Skeleton, Tag } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { checkIdCard, checkMobile } from '../../../shared/validators';
import { useConfirmDiscard } from '../../core/confirm-discard';
import { useSession } from '../../core/stores/session';
import { PschoolNav } from './PschoolNav';
import { pschoolApi, type OpenClass } from './api';

function RegisterDialog({ cls, onClose }: { cls: OpenClass; onClose: () => void }) {
  const user = useSession((s) => s.user);
  const queryClient = useQueryClient();
  const [form] = Form.useForm();
  const confirmDiscard = useConfirmDiscard();
  const register = useMutation({
    mutationFn: (v: { name: string; idCard?: string; phone?: string }) => pschoolApi.register(cls.id, v),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['pschool'] });
      onClose();
    },
  });
  const rule = (check: (v: string) => string | undefined) => ({ validator: (_: unknown, v: string) => (!v || !check(v) ? Promise.resolve() : Promise.reject(new Error(check(v)))) });
  return (
    <Modal open title={`报名：${cls.name}`} okText="提交报名" cancelText="取消" onOk={() => form.submit()} confirmLoading={register.isPending} onCancel={() => confirmDiscard(form.isFieldsTouched(), onClose)} maskClosable={false} keyboard={false}>
      <Form form={form} layout="vertical" initialValues={{ name: user?.nickName ?? '' }} onFinish={(v) => register.mutate(v)}>
        <Form.Item name="name" label="姓名" rules={[{ required: true, message: '请输入姓名' }]}><Input maxLength={50} /></Form.Item>
        <Form.Item name="idCard" label="身份证号" rules={[{ required: true, message: '请输入身份证号' }, rule(checkIdCard)]}><Input maxLength={18} /></Form.Item>
        <Form.Item name="phone" label="手机号码" rules={[rule(checkMobile)]}><Input maxLength={11} /></Form.Item>
      </Form>
      <div className="ps-muted">报名后由党校管理员审核，录取后可在“个人主页”查看学习进度。</div>
    </Modal>
  );
}

export default function TrainingCenterPage() {
  const home = useQuery({ queryKey: ['pschool', 'home'], queryFn: pschoolApi.home });
  const open = useQuery({ queryKey: ['pschool', 'open-classes'], queryFn: pschoolApi.openClasses });
  const surveys = useQuery({ queryKey: ['pschool', 'surveys'], queryFn: pschoolApi.surveys });
  const [registering, setRegistering] = useState<OpenClass>();
  const mine = home.data?.classes.filter((c) => c.status === '2') ?? [];
  return (
    <div className="page-container ps-page">
      <PschoolNav />
      <div className="ps-hero">
        <h2>培训中心</h2>
        <p>查看培训班安排、报名参加培训、填写问卷</p>
      </div>
      <h3>我的培训班</h3>
      {home.isLoading ? <Skeleton active /> : mine.length ? (
        mine.map((c) => (
          <Card key={c.studentId} size="small" style={{ marginBottom: 12 }} title={c.className}>
            <Descriptions size="small" column={{ xs: 1, sm: 2 }} items={[
              { key: 'b', label: '批次', children: `${c.batchName ?? ''} ${c.dxPcLabel}` },
              { key: 'd', label: '时间', children: `${c.startDate ?? '—'} 至 ${c.endDate ?? '—'}` },
              { key: 'p', label: '地点', children: c.place ?? '—' },
              { key: 't', label: '授课教师', children: c.teachers ?? '—' },
              { key: 's', label: '课程安排', children: c.schedule ?? '—', span: 2 },
            ]} />
            <Link to="/pschool/mine">去学习本班课程</Link>
          </Card>
        ))
      ) : <Empty description="还没有录取的培训班" />}
      <h3 style={{ marginTop: 16 }}>开放报名</h3>
      {open.isLoading ? <Skeleton active /> : open.data?.length ? (
        <div className="ps-grid">
          {open.data.map((c) => (
            <Card key={c.id} size="small" data-open-class={c.id}>
              <div className="ps-card-title">{c.name}</div>
              <div className="ps-muted">{c.dxPcLabel} · {c.startDate ?? ''} · {c.place ?? ''} · 已录取{c.admitted}{c.capacity ? `/${c.capacity}` : ''}人</div>
              <div style={{ marginTop: 8 }}>
                {c.myStatus === '1' ? <Tag color="gold">已报名，待审核</Tag> : c.myStatus === '2' ? <Tag color="green">已录取</Tag> : c.myStatus === '3' ? <Tag>未通过</Tag> : c.full ? <Tag>名额已满</Tag> : <Button type="primary" size="small" onClick={() => setRegistering(c)}>报名</Button>}
              </div>
            </Card>
          ))}
        </div>
      ) : <Empty description="暂无开放报名的培训班" />}
      <h3 style={{ marginTop: 16 }}>问卷调查</h3>
      {surveys.data?.length ? (
        surveys.data.map((s) => (
          <div key={s.id} className="ps-node">
            <div className="ps-node-title">{s.title}{s.anonymous && <Tag style={{ marginLeft: 8 }}>匿名</Tag>}</div>
            {s.answeredAt ? <Tag color="success">已提交</Tag> : s.state === 'open' ? <Link to={`/pschool/survey/${s.id}`}><Button size="small">填写</Button></Link> : <Tag>{s.state === 'upcoming' ? '未开始' : '已截止'}</Tag>}
          </div>
        ))
      ) : <Empty description="暂无问卷" />}
      {registering && <RegisterDialog cls={registering} onClose={() => setRegistering(undefined)} />}
    </div>
  );
}
