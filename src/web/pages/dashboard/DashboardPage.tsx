import { Card, Col, Row, Typography } from 'antd';
import { useSession } from '../../core/stores/session';

export default function DashboardPage() {
  const user = useSession((s) => s.user);
  return (
    <div className="page-container">
      <Typography.Title level={4}>欢迎，{user?.nickName ?? user?.username}</Typography.Title>
      <Row gutter={16}>
        <Col xs={24} md={8}>
          <Card title="我的待办">登录后在右上角查看待办事项与私信。</Card>
        </Col>
        <Col xs={24} md={8}>
          <Card title="常用功能">从顶部导航进入各业务模块。</Card>
        </Col>
        <Col xs={24} md={8}>
          <Card title="系统公告">欢迎使用党建工作管理系统。</Card>
        </Col>
      </Row>
    </div>
  );
}
