import { LockOutlined, MobileOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Checkbox } from 'antd';
// Input itself, not the barrel: the barrel brings TextArea, Search and OTP, unused here (~8 KB of the first load).
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { useCallback, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { defaultSettings } from '../../../shared/school-branding';
import { isPhoneUserAgent } from '../../../shared/terminal';
import { useSchool } from '../../core/stores/settings';
import { getRemembered } from '../../core/auth/token';
import { showFeedback } from '../../core/request/feedback';
import { get, post } from '../../core/request/request';
import { useSession } from '../../core/stores/session';
import { DemoMark } from '../../core/layout/DemoMark';
import { useConfigFlag, useSysConfig } from '../../core/stores/sysconfig';
import { useFields } from './useFields';
import './login.css';

/** A field of the login forms with its error line under it (the rules are in useFields). */
function Field({ error, children }: { error?: string; children: ReactNode }) {
  return (
    <div className={`login-field${error ? ' has-error' : ''}`}>
      {children}
      <div className="login-field-error" role={error ? 'alert' : undefined}>
        {error}
      </div>
    </div>
  );
}

/** Where to go after signing in: the `redirect` query when it is an in-app path, else the root. */
export function afterLoginPath(redirect: string | null): string {
  return redirect && redirect.startsWith('/') && !redirect.startsWith('//') ? redirect : '/';
}

function useCaptcha() {
  const [captcha, setCaptcha] = useState<{ img: string; uuid: string; enabled: boolean }>({ img: '', uuid: '', enabled: false });
  // A locked account still lets its owner in with the right password and a captcha (server: core/auth/lockout.ts),
  // so after such an answer the form asks for one even where captchas are switched off.
  const [forLock, setForLock] = useState(false);
  const refresh = useCallback(() => {
    get<{ img: string; uuid: string; enabled: boolean }>('/auth/code', forLock ? { lock: 'true' } : undefined, { skipErrorNotify: true }).then(setCaptcha, () => undefined);
  }, [forLock]);
  useEffect(refresh, [refresh]);
  return { captcha, refresh, requireForLock: () => setForLock(true) };
}

/** Whether a refused login asks for a captcha (an account lock). */
const asksForCaptcha = (error: unknown) => !!(error as { response?: { data?: { captchaRequired?: unknown } } }).response?.data?.captchaRequired;

const PASSWORD_RULES = {
  username: [{ required: true, message: '请输入用户名' }],
  password: [{ required: true, message: '请输入密码' }],
  code: [{ required: true, message: '请输入验证码' }],
};

function PasswordLogin({ onDone }: { onDone: () => void }) {
  const remembered = getRemembered();
  const [rememberMe, setRememberMe] = useState(!!remembered);
  const [loading, setLoading] = useState(false);
  const { captcha, refresh, requireForLock } = useCaptcha();
  const login = useSession((s) => s.login);
  const fields = useFields({ username: remembered?.username ?? '', password: '', code: '' }, PASSWORD_RULES);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!fields.validate(captcha.enabled ? ['username', 'password', 'code'] : ['username', 'password'])) return;
    setLoading(true);
    try {
      const { username, password, code } = fields.values;
      await login({ username, password, code: captcha.enabled ? code : undefined, rememberMe, uuid: captcha.uuid });
      onDone();
    } catch (error) {
      fields.setValue('code', '');
      if (asksForCaptcha(error) && !captcha.enabled) requireForLock();
      else refresh();
    } finally {
      setLoading(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} autoComplete="off" noValidate>
      <Field error={fields.errors.username}>
        <Input size="large" prefix={<UserOutlined />} placeholder="用户名" autoComplete="username" {...fields.bind('username')} />
      </Field>
      <Field error={fields.errors.password}>
        <Password size="large" prefix={<LockOutlined />} placeholder="密码" autoComplete="current-password" {...fields.bind('password')} />
      </Field>
      {captcha.enabled && (
        <Field error={fields.errors.code}>
          <Input
            size="large"
            prefix={<SafetyOutlined />}
            placeholder="验证码"
            maxLength={6}
            suffix={<img className="captcha-img" src={captcha.img} alt="验证码" title="看不清？点击换一张" onClick={refresh} />}
            {...fields.bind('code')}
          />
        </Field>
      )}
      <div className="login-field">
        <Checkbox checked={rememberMe} onChange={(e) => setRememberMe(e.target.checked)}>
          记住我
        </Checkbox>
      </div>
      <Button type="primary" htmlType="submit" size="large" block loading={loading}>
        {loading ? '登 录 中...' : '登 录'}
      </Button>
    </form>
  );
}

const SMS_RULES = {
  phone: [
    { required: true, message: '请输入手机号码' },
    { pattern: /^1[3-9]\d{9}$/, message: '请输入正确的手机号码' },
  ],
  vercode: [
    { required: true, message: '请输入验证码' },
    { pattern: /^\d{6}$/, message: '验证码为6位数字' },
  ],
};

function SmsLogin({ onDone }: { onDone: () => void }) {
  const [loading, setLoading] = useState(false);
  const [wait, setWait] = useState(0);
  const smsLogin = useSession((s) => s.smsLogin);
  const fields = useFields({ phone: '', vercode: '' }, SMS_RULES);

  useEffect(() => {
    if (wait <= 0) return;
    const t = setTimeout(() => setWait(wait - 1), 1000);
    return () => clearTimeout(t);
  }, [wait]);

  const sendCode = async () => {
    if (!fields.validate(['phone'])) return;
    await post('/auth/sms/verify', { phone: fields.values.phone });
    showFeedback((f) => f.message.success('验证码已发送，请注意查收'));
    setWait(60);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!fields.validate()) return;
    setLoading(true);
    try {
      await smsLogin(fields.values.phone, fields.values.vercode);
      onDone();
    } catch {
      // the request layer shows the server's message
    } finally {
      setLoading(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} autoComplete="off" noValidate>
      <Field error={fields.errors.phone}>
        <Input size="large" prefix={<MobileOutlined />} placeholder="手机号码" maxLength={11} {...fields.bind('phone')} />
      </Field>
      <Field error={fields.errors.vercode}>
        <Input
          size="large"
          prefix={<SafetyOutlined />}
          placeholder="短信验证码"
          maxLength={6}
          suffix={
            <Button type="link" size="small" disabled={wait > 0} onClick={() => void sendCode().catch(() => undefined)}>
              {wait > 0 ? `${wait}秒后重新获取` : '获取验证码'}
            </Button>
          }
          {...fields.bind('vercode')}
        />
      </Field>
      <Button type="primary" htmlType="submit" size="large" block loading={loading}>
        登 录
      </Button>
    </form>
  );
}

const LOGIN_MODES = [
  { key: 'password', label: '账号密码登录' },
  { key: 'sms', label: '短信验证码登录' },
] as const;
type LoginMode = (typeof LOGIN_MODES)[number]['key'];

/**
 * The two ways to sign in as tabs. Two buttons with the tab roles rather than antd Tabs: Tabs brings
 * its overflow menu and dropdown, about 15 KB of the login page's first download.
 */
function LoginModeTabs({ mode, onChange }: { mode: LoginMode; onChange: (mode: LoginMode) => void }) {
  return (
    <div className="login-tabs" role="tablist">
      {LOGIN_MODES.map((m) => (
        <button key={m.key} type="button" role="tab" id={`login-tab-${m.key}`} aria-selected={mode === m.key} aria-controls={`login-panel-${m.key}`} className={mode === m.key ? 'active' : ''} onClick={() => onChange(m.key)}>
          {m.label}
        </button>
      ))}
    </div>
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
  const isDead = useConfigFlag('isDead');
  const smsFirst = location.pathname.startsWith('/newlogin');
  const onDone = () => {
    const to = afterLoginPath(params.get('redirect'));
    // Issue 31: a phone goes to the mobile terminal (it links back to this site), as does a login it asked for.
    if (to.startsWith('/m/') || (to === '/' && isPhoneUserAgent(navigator.userAgent))) window.location.replace(`/web${to === '/' ? '/m/' : to}`);
    else void navigate(to, { replace: true });
  };
  const [mode, setMode] = useState<LoginMode>(smsFirst ? 'sms' : 'password');

  return (
    <div className={`login-page${isDead ? ' is-dead' : ''}`}>
      <div className="login-card">
        <div className="login-brand">
          <img src={school.schoolLogo} alt="" width={64} height={64} />
          <h1>{siteTitle}</h1>
          <p>{school.schoolName}</p>
          <DemoMark />
        </div>
        <div className="login-form">
          <h2>欢迎登录</h2>
          <LoginModeTabs mode={mode} onChange={setMode} />
          <div role="tabpanel" id={`login-panel-${mode}`} aria-labelledby={`login-tab-${mode}`}>
            {mode === 'password' ? <PasswordLogin onDone={onDone} /> : <SmsLogin onDone={onDone} />}
          </div>
        </div>
      </div>
      <div className="login-footer">{school.footerTxt}</div>
    </div>
  );
}
