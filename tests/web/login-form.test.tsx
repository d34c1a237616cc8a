import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import LoginPage from '../../src/web/pages/login/LoginPage';
import { fieldError } from '../../src/web/pages/login/useFields';
import { request } from '../../src/web/core/request/request';
import { useSession } from '../../src/web/core/stores/session';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

async function renderLogin(path = '/login') {
  // No captcha: the server's answer says it is switched off.
  vi.spyOn(request, 'get').mockResolvedValue({ data: { img: '', uuid: 'u1', enabled: false } });
  const view = render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route path="/newlogin" element={<LoginPage />} />
        <Route path="*" element={<Landed />} />
      </Routes>
    </MemoryRouter>,
  );
  await act(async () => undefined); // the captcha answer arrives
  return view;
}

function Landed() {
  return <p data-testid="landed">{useLocation().pathname}</p>;
}

const errors = () => [...document.querySelectorAll('.login-field-error')].map((e) => e.textContent).filter(Boolean);

describe('the login forms', () => {
  it('fieldError: required texts may not be only spaces; a pattern applies to a non-empty value', () => {
    expect(fieldError('  ', [{ required: true, message: '请输入用户名' }])).toBe('请输入用户名');
    expect(fieldError('admin', [{ required: true, message: '请输入用户名' }])).toBeUndefined();
    const phone = [{ required: true, message: '请输入手机号码' }, { pattern: /^1[3-9]\d{9}$/, message: '请输入正确的手机号码' }];
    expect(fieldError('', phone)).toBe('请输入手机号码');
    expect(fieldError('1380013800', phone)).toBe('请输入正确的手机号码');
    expect(fieldError('13800138000', phone)).toBeUndefined();
  });

  it('submitting an empty password form names each missing field and sends nothing; typing clears the error', async () => {
    const login = vi.spyOn(useSession.getState(), 'login');
    await renderLogin();
    fireEvent.click(screen.getByRole('button', { name: /登\s*录/ }));
    await waitFor(() => expect(errors()).toEqual(['请输入用户名', '请输入密码']));
    expect(login).not.toHaveBeenCalled();
    expect(screen.getByPlaceholderText('用户名').closest('.ant-input-affix-wrapper')?.className).toContain('status-error');
    fireEvent.change(screen.getByPlaceholderText('用户名'), { target: { value: 'admin' } });
    await waitFor(() => expect(errors()).toEqual(['请输入密码']));
  });

  it('signs in with the typed values and 记住我, then leaves for the redirect path', async () => {
    const login = vi.fn().mockResolvedValue(undefined);
    useSession.setState({ login });
    await renderLogin('/login?redirect=%2Fsystem%2Fusers');
    fireEvent.change(screen.getByPlaceholderText('用户名'), { target: { value: 'admin' } });
    fireEvent.change(screen.getByPlaceholderText('密码'), { target: { value: 'Dangjian@2026' } });
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: /登\s*录/ }));
    await waitFor(() => expect(login).toHaveBeenCalledWith({ username: 'admin', password: 'Dangjian@2026', code: undefined, rememberMe: true, uuid: 'u1' }));
    expect((await screen.findByTestId('landed')).textContent).toBe('/system/users');
  });

  it('a locked account (captchaRequired) makes the form ask for a captcha, sent with the next try', async () => {
    await renderLogin();
    const get = vi.spyOn(request, 'get').mockImplementation(async (_url, config) =>
      ({ data: (config?.params as { lock?: string } | undefined)?.lock === 'true' ? { img: 'data:image/svg+xml;base64,', uuid: 'lock-1', enabled: true } : { img: '', uuid: 'u1', enabled: false } }));
    const login = vi.fn().mockRejectedValueOnce({ response: { status: 400, data: { status: 400, message: '账号已被锁定', captchaRequired: true } } }).mockResolvedValue(undefined);
    useSession.setState({ login });
    fireEvent.change(screen.getByPlaceholderText('用户名'), { target: { value: 'admin' } });
    fireEvent.change(screen.getByPlaceholderText('密码'), { target: { value: 'Dangjian@2026' } });
    fireEvent.click(screen.getByRole('button', { name: /登\s*录/ }));
    const code = await screen.findByPlaceholderText('验证码');
    expect(get).toHaveBeenCalledWith('/auth/code', expect.objectContaining({ params: { lock: 'true' } }));
    fireEvent.change(code, { target: { value: 'ab12' } });
    fireEvent.click(screen.getByRole('button', { name: /登\s*录/ }));
    await waitFor(() => expect(login).toHaveBeenLastCalledWith({ username: 'admin', password: 'Dangjian@2026', code: 'ab12', rememberMe: false, uuid: 'lock-1' }));
  });

  it('the SMS tab checks the phone number on blur and the code as six digits; /newlogin opens on it', async () => {
    await renderLogin('/newlogin');
    expect(screen.getByRole('tab', { name: '短信验证码登录' }).getAttribute('aria-selected')).toBe('true');
    fireEvent.change(screen.getByPlaceholderText('手机号码'), { target: { value: '1380013800' } });
    fireEvent.blur(screen.getByPlaceholderText('手机号码'));
    await waitFor(() => expect(errors()).toEqual(['请输入正确的手机号码']));
    fireEvent.change(screen.getByPlaceholderText('短信验证码'), { target: { value: '12a' } });
    fireEvent.click(screen.getByRole('button', { name: /登\s*录/ }));
    await waitFor(() => expect(errors()).toEqual(['请输入正确的手机号码', '验证码为6位数字']));
    fireEvent.click(screen.getByRole('tab', { name: '账号密码登录' }));
    expect(screen.getByPlaceholderText('用户名')).toBeTruthy();
    expect(screen.getByRole('tabpanel').id).toBe('login-panel-password');
  });
});
