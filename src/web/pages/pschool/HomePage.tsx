/**
 * 个人主页 (`/pschool/home/page`): the learner's classes with class hours required and done, the exam,
 * completion and certificate; links on to the exams and to each certificate.
 */
import { SafetyCertificateOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Empty, Progress, Row, Skeleton, Space, Statistic, Tag } from 'antd';
import { Link } from 'react-router-dom';
import { PschoolNav } from './PschoolNav';
import { pschoolApi, type MyClass } from './api';

function ClassCard({ c }: { c: MyClass }) {
  const percent = c.requiredHours ? Math.min(100, Math.round((c.hoursDone * 100) / c.requiredHours)) : 100;
  return (
    <Card size="small" data-class={c.classId} title={c.className} extra={<Tag color={c.status === '2' ? 'green' : c.status === '1' ? 'gold' : 'default'}>{c.statusLabel}</Tag>}>
      <div className="ps-muted">{c.batchName} {c.dxPcLabel && `· ${c.dxPcLabel}`}</div>
      {c.status === '2' && (
        <>
          <div style={{ marginTop: 8 }} data-testid="pschool-hours">
            学时 <b>{c.hoursDone}</b> / {c.requiredHours}
            <span className="ps-muted">（线上{c.onlineHours ?? 0}，线下{c.offlineHours ?? 0}）</span>
          </div>
          <Progress percent={percent} size="small" status={c.completed ? 'success' : 'active'} />
          <Space wrap>
            {c.examRequired && (c.examPassed ? <Tag color="success">考试已通过</Tag> : <Tag color="warning">待通过结业考试</Tag>)}
            {c.completed ? <Tag color="success">已结业</Tag> : <Tag>培训中</Tag>}
            {c.certificateId && (
              <Link to={`/pschool/certificate/${c.certificateId}`}>
                <Button size="small" type="primary" icon={<SafetyCertificateOutlined />}>结业证书 {c.certificateNo}</Button>
              </Link>
            )}
          </Space>
        </>
      )}
    </Card>
  );
}

export default function HomePage() {
  const home = useQuery({ queryKey: ['pschool', 'home'], queryFn: pschoolApi.home });
  const exams = useQuery({ queryKey: ['pschool', 'exams'], queryFn: pschoolApi.exams });
  const openExams = exams.data?.filter((e) => e.canStart) ?? [];
  return (
    <div className="page-container ps-page">
      <PschoolNav />
      {!home.data ? (
        <Skeleton active />
      ) : (
        <>
          <div className="ps-hero">
            <h2>{home.data.name}的党校主页</h2>
            <p>学时、考试与结业证书一览</p>
          </div>
          <Row gutter={[12, 12]} style={{ marginBottom: 16 }}>
            <Col xs={12} md={6}><Card size="small"><Statistic title="已修学时" value={home.data.totals.hoursDone} /></Card></Col>
            <Col xs={12} md={6}><Card size="small"><Statistic title="在学班级学时要求" value={home.data.totals.requiredHours} /></Card></Col>
            <Col xs={12} md={6}><Card size="small"><Statistic title="已结业" value={home.data.totals.completed} suffix="个班" /></Card></Col>
            <Col xs={12} md={6}><Card size="small"><Statistic title="结业证书" value={home.data.totals.certificates} suffix="张" /></Card></Col>
          </Row>
          {openExams.length > 0 && (
            <Card size="small" style={{ marginBottom: 16 }} title="待参加的考试">
              {openExams.map((e) => (
                <div key={e.id} className="ps-node">
                  <div className="ps-node-title">{e.title}</div>
                  <Link to={`/pschool/exam/center?examId=${e.id}`}><Button size="small" type="primary">{e.open ? '继续考试' : '去考试'}</Button></Link>
                </div>
              ))}
            </Card>
          )}
          <h3>我的培训班</h3>
          {home.data.classes.length ? (
            <div className="ps-grid">{home.data.classes.map((c) => <ClassCard key={c.studentId} c={c} />)}</div>
          ) : (
            <Empty description="还没有参加培训班"><Link to="/pschool/party/center"><Button type="primary">去培训中心报名</Button></Link></Empty>
          )}
        </>
      )}
    </div>
  );
}
