import { Card, Col, Row, Typography } from 'antd';
import { useSession } from '../../core/stores/session';
import { useConfigFlag } from '../../core/stores/sysconfig';

/** The home page (首页, the /home/home of spec §2): greyed in mourning mode like the login page. */
export default function DashboardPage() {
  const user = useSession((s) => s.user);
  const isDead = useConfigFlag('isDead');
  return (
    <div className={`page-container dashboard${isDead ? ' is-dead' : ''}`}>
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
