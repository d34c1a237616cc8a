import { LockOutlined, MobileOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { App, Button, Checkbox, Form, Input, Tabs } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { defaultSettings } from '../../../shared/school-branding';
import { useSchool } from '../../core/stores/settings';
import { getRemembered } from '../../core/auth/token';
import { get, post } from '../../core/request/request';
import { useSession } from '../../core/stores/session';
import { useSysConfig } from '../../core/stores/sysconfig';
import './login.css';

interface PasswordForm {
  username: string;
  password: string;
  code?: string;
  rememberMe?: boolean;
}

interface SmsForm {
  phone: string;
  vercode: string;
}

/** Where to go after signing in: the `redirect` query when it is an in-app path, else the root. */
export function afterLoginPath(redirect: string | null): string {
  return redirect && redirect.startsWith('/') && !redirect.startsWith('//') ? redirect : '/';
}

function useCaptcha() {
  const [captcha, setCaptcha] = useState<{ img: string; uuid: string; enabled: boolean }>({ img: '', uuid: '', enabled: false });
  const refresh = useCallback(() => {
    get<{ img: string; uuid: string; enabled: boolean }>('/auth/code', undefined, { skipErrorNotify: true }).then(setCaptcha, () => undefined);
  }, []);
  useEffect(refresh, [refresh]);
  return { captcha, refresh };
}

function PasswordLogin({ onDone }: { onDone: () => void }) {
  const [form] = Form.useForm<PasswordForm>();
  const [loading, setLoading] = useState(false);
  const { captcha, refresh } = useCaptcha();
  const login = useSession((s) => s.login);
  const remembered = getRemembered();

  const submit = async (values: PasswordForm) => {
    setLoading(true);
    try {
      await login({ ...values, uuid: captcha.uuid });
      onDone();
    } catch {
      form.setFieldValue('code', '');
      refresh();
    } finally {
      setLoading(false);
    }
  };

  return (
    <Form<PasswordForm> form={form} size="large" onFinish={submit} autoComplete="off" initialValues={{ username: remembered?.username, rememberMe: !!remembered }}>
      <Form.Item name="username" rules={[{ required: true, whitespace: true, message: '请输入用户名' }]}>
        <Input prefix={<UserOutlined />} placeholder="用户名" autoComplete="username" />
      </Form.Item>
      <Form.Item name="password" rules={[{ required: true, message: '请输入密码' }]}>
        <Input.Password prefix={<LockOutlined />} placeholder="密码" autoComplete="current-password" />
      </Form.Item>
      {captcha.enabled && (
        <Form.Item name="code" rules={[{ required: true, whitespace: true, message: '请输入验证码' }]}>
          <Input
            prefix={<SafetyOutlined />}
            placeholder="验证码"
            maxLength={6}
            suffix={<img className="captcha-img" src={captcha.img} alt="验证码" title="看不清？点击换一张" onClick={refresh} />}
          />
        </Form.Item>
      )}
      <Form.Item name="rememberMe" valuePropName="checked">
        <Checkbox>记住我</Checkbox>
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={loading}>
        {loading ? '登 录 中...' : '登 录'}
      </Button>
    </Form>
  );
}

function SmsLogin({ onDone }: { onDone: () => void }) {
  const [form] = Form.useForm<SmsForm>();
  const [loading, setLoading] = useState(false);
  const [wait, setWait] = useState(0);
  const smsLogin = useSession((s) => s.smsLogin);
  const { message } = App.useApp();

  useEffect(() => {
    if (wait <= 0) return;
    const t = setTimeout(() => setWait(wait - 1), 1000);
    return () => clearTimeout(t);
  }, [wait]);

  const sendCode = async () => {
    const phone = (await form.validateFields(['phone'])).phone;
    await post('/auth/sms/verify', { phone });
    message.success('验证码已发送，请注意查收');
    setWait(60);
  };

  const submit = async (values: SmsForm) => {
    setLoading(true);
    try {
      await smsLogin(values.phone, values.vercode);
      onDone();
    } catch {
      // the request layer shows the server's message
    } finally {
      setLoading(false);
    }
  };

  return (
    <Form<SmsForm> form={form} size="large" onFinish={submit} autoComplete="off">
      <Form.Item name="phone" rules={[{ required: true, message: '请输入手机号码' }, { pattern: /^1[3-9]\d{9}$/, message: '请输入正确的手机号码' }]}>
        <Input prefix={<MobileOutlined />} placeholder="手机号码" maxLength={11} />
      </Form.Item>
      <Form.Item name="vercode" rules={[{ required: true, message: '请输入验证码' }, { pattern: /^\d{6}$/, message: '验证码为6位数字' }]}>
        <Input
          prefix={<SafetyOutlined />}
          placeholder="短信验证码"
          maxLength={6}
          suffix={
            <Button type="link" size="small" disabled={wait > 0} onClick={() => void sendCode().catch(() => undefined)}>
              {wait > 0 ? `${wait}秒后重新获取` : '获取验证码'}
            </Button>
          }
        />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={loading}>
        登 录
      </Button>
    </Form>
  );
}

/** The login page of /login and its variants: /newlogin starts on SMS login; the others are school-branded. */
export default function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const config = useSysConfig((s) => s.map);
  const school = useSchool();
  const siteTitle = config.htmlTitle || defaultSettings.title;
  const isDead = config.isDead === 'true';
  const smsFirst = location.pathname.startsWith('/newlogin');
  const onDone = () => navigate(afterLoginPath(params.get('redirect')), { replace: true });

  return (
    <div className={`login-page${isDead ? ' is-dead' : ''}`}>
      <div className="login-card">
        <div className="login-brand">
          <img src={school.schoolLogo} alt="" width={64} height={64} />
          <h1>{siteTitle}</h1>
          <p>{school.schoolName}</p>
        </div>
        <div className="login-form">
          <h2>欢迎登录</h2>
          <Tabs
            defaultActiveKey={smsFirst ? 'sms' : 'password'}
            items={[
              { key: 'password', label: '账号密码登录', children: <PasswordLogin onDone={onDone} /> },
              { key: 'sms', label: '短信验证码登录', children: <SmsLogin onDone={onDone} /> },
            ]}
          />
        </div>
      </div>
      <div className="login-footer">{school.footerTxt}</div>
    </div>
  );
}
