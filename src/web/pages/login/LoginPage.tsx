import { LockOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { App, Button, Form, Input } from 'antd';
import { DEFAULT_SITE_TITLE } from '../../core/route-meta';
import './login.css';

interface LoginForm {
  username: string;
  password: string;
  code: string;
}

/** The login page shared by /login and its school variants; sign-in arrives with the auth module. */
export default function LoginPage() {
  const { message } = App.useApp();
  const onFinish = (values: LoginForm) => {
    void values;
    message.info('登录服务正在建设中');
  };
  return (
    <div className="login-page">
      <div className="login-card">
        <div className="login-brand">
          <img src="/web/favicon.svg" alt="" width={56} height={56} />
          <h1>{DEFAULT_SITE_TITLE}</h1>
          <p>高校党建工作信息化平台</p>
        </div>
        <Form<LoginForm> className="login-form" size="large" onFinish={onFinish} autoComplete="off">
          <h2>账号登录</h2>
          <Form.Item name="username" rules={[{ required: true, whitespace: true, message: '请输入用户名' }]}>
            <Input prefix={<UserOutlined />} placeholder="用户名" />
          </Form.Item>
          <Form.Item name="password" rules={[{ required: true, message: '请输入密码' }]}>
            <Input.Password prefix={<LockOutlined />} placeholder="密码" />
          </Form.Item>
          <Form.Item name="code" rules={[{ required: true, message: '请输入验证码' }]}>
            <Input prefix={<SafetyOutlined />} placeholder="验证码" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block>
            登 录
          </Button>
        </Form>
      </div>
    </div>
  );
}
