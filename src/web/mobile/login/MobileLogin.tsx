/**
 * 登录 on the phone (/web/m/login): username, password and the captcha when the site asks for one (or a locked
 * account needs one), the password encrypted as the desktop does it (`POST /auth/login`, terminal MOBILE 2 from
 * the X-Terminal header). Afterwards the screen asked for (`redirect`, a path under /web/m/) opens.
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { PublicUser } from '../../../shared/session-user';
import { setToken } from '../../core/auth/token';
import { ApiError, get, post } from '../api';
import { encryptPassword } from './encrypt';

interface Captcha {
  img: string;
  uuid: string;
  enabled: boolean;
}

/** Where to go after logging in: the `redirect` query when it is a screen of this app, else 首页. */
export function afterLogin(search: string): string {
  const to = new URLSearchParams(search).get('redirect') ?? '';
  return to.startsWith('/web/m/') && !to.startsWith('/web/m/login') && !to.includes('//') ? to.slice('/web/m/'.length) : '';
}

export default function MobileLogin({ onLogin }: { onLogin: (user: PublicUser) => void }) {
  const [values, setValues] = useState({ username: '', password: '', code: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const [captcha, setCaptcha] = useState<Captcha>({ img: '', uuid: '', enabled: false });
  const [forLock, setForLock] = useState(false);
  const refresh = useCallback(() => {
    get<Captcha>(`/auth/code${forLock ? '?lock=true' : ''}`).then(setCaptcha, () => undefined);
  }, [forLock]);
  useEffect(refresh, [refresh]);
  const set = (name: keyof typeof values) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [name]: e.target.value }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const missing: Record<string, string> = {};
    if (!values.username.trim()) missing.username = '请输入用户名';
    if (!values.password) missing.password = '请输入密码';
    if (captcha.enabled && !values.code.trim()) missing.code = '请输入验证码';
    setErrors(missing);
    setMessage('');
    if (Object.keys(missing).length) return;
    setBusy(true);
    try {
      const { publicKey } = await get<{ publicKey: string }>('/auth/publicKey');
      const password = await encryptPassword(publicKey, values.password);
      const answer = await post<{ token: string; user: PublicUser }>('/auth/login', { username: values.username.trim(), password, ...(captcha.enabled ? { code: values.code.trim(), uuid: captcha.uuid } : {}) });
      setToken(answer.token);
      onLogin(answer.user);
    } catch (error) {
      setMessage((error as Error).message);
      setValues((v) => ({ ...v, code: '' }));
      if (error instanceof ApiError && error.captchaRequired && !captcha.enabled) setForLock(true);
      else if (captcha.enabled) refresh();
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="m-login">
      <div className="m-login-brand">
        <img src="/web/favicon.svg" alt="" width={56} height={56} />
        <h1>党建</h1>
      </div>
      <form className="m-card m-form" aria-label="登录" noValidate onSubmit={(e) => void submit(e)}>
        <div className={errors.username ? 'm-field m-field-bad' : 'm-field'}>
          <input className="m-input" name="username" placeholder="用户名" aria-label="用户名" autoComplete="username" autoCapitalize="off" value={values.username} onChange={set('username')} />
          {errors.username && <div className="m-field-error" role="alert">{errors.username}</div>}
        </div>
        <div className={errors.password ? 'm-field m-field-bad' : 'm-field'}>
          <input className="m-input" name="password" type="password" placeholder="密码" aria-label="密码" autoComplete="current-password" value={values.password} onChange={set('password')} />
          {errors.password && <div className="m-field-error" role="alert">{errors.password}</div>}
        </div>
        {captcha.enabled && (
          <div className={errors.code ? 'm-field m-field-bad' : 'm-field'}>
            <div className="m-captcha">
              <input className="m-input" name="code" placeholder="验证码" aria-label="验证码" inputMode="numeric" maxLength={6} autoComplete="off" value={values.code} onChange={set('code')} />
              <button type="button" className="m-captcha-img" aria-label="看不清？换一张" onClick={refresh}>
                <img src={captcha.img} alt="验证码" />
              </button>
            </div>
            {errors.code && <div className="m-field-error" role="alert">{errors.code}</div>}
          </div>
        )}
        {message && <p className="m-note m-error" role="alert">{message}</p>}
        <button type="submit" className="m-btn m-btn-primary m-block" disabled={busy}>
          {busy ? '登录中…' : '登 录'}
        </button>
      </form>
      <p className="m-note">
        <a href="/web/login">电脑版登录</a>
      </p>
    </div>
  );
}
