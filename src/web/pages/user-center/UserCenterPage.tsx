import { Card, Col, Descriptions, Row, Tabs } from 'antd';
import { useSearchParams } from 'react-router-dom';
import { useDict } from '../../core/dicts';
import { useSession } from '../../core/stores/session';
import { AvatarUpload } from './AvatarUpload';
import { EmailForm } from './EmailForm';
import { LoginHistory } from './LoginHistory';
import { MyFiles } from './MyFiles';
import { PasswordForm } from './PasswordForm';
import { ProfileForm, type CenterUser } from './ProfileForm';
import './user-center.css';

const TABS = ['profile', 'email', 'password', 'history', 'files'] as const;

/** 个人中心 (/user/center): own profile, avatar, e-mail, password, sign-in history and uploaded files. */
export default function UserCenterPage() {
  const user = useSession((s) => s.user) as CenterUser | null;
  const gender = useDict('DJ_COMM_XB');
  const [params, setParams] = useSearchParams();
  const tab = TABS.find((t) => t === params.get('tab')) ?? 'profile';
  if (!user) return null;

  return (
    <div className="user-center">
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={8} xl={7}>
          <Card title="个人信息" className="user-center-card">
            <AvatarUpload />
            <Descriptions
              column={1}
              size="small"
              className="user-center-info"
              items={[
                { key: 'username', label: '用户名', children: user.username },
                { key: 'nickName', label: '姓名', children: user.nickName || '-' },
                { key: 'phone', label: '手机号码', children: user.phone || '-' },
                { key: 'email', label: '邮箱', children: user.email || '-' },
                { key: 'gender', label: '性别', children: gender.labelOf(user.gender) || '-' },
              ]}
            />
          </Card>
        </Col>
        <Col xs={24} lg={16} xl={17}>
          <Card className="user-center-card">
            <Tabs
              activeKey={tab}
              onChange={(key) => setParams(key === 'profile' ? {} : { tab: key }, { replace: true })}
              items={[
                { key: 'profile', label: '基本资料', children: <ProfileForm key={user.id} user={user} /> },
                { key: 'email', label: '修改邮箱', children: <EmailForm current={user.email} /> },
                { key: 'password', label: '修改密码', children: <PasswordForm /> },
                { key: 'history', label: '登录记录', children: <LoginHistory /> },
                { key: 'files', label: '我的文件', children: <MyFiles /> },
              ]}
            />
          </Card>
        </Col>
      </Row>
    </div>
  );
}
