import { App, Button, Form, Input, Space } from 'antd';
import { useEffect, useState } from 'react';
import { checkEmail } from '../../../shared/validators';
import { useSession } from '../../core/stores/session';
import { sendEmailCode, showFieldErrors, updateEmail } from './api';
import { FORM_LAYOUT, SCROLL_TO_ERROR, ruleFrom } from './rules';

interface Values {
  email: string;
  code: string;
  password: string;
}

/** The server accepts one code a minute per address. */
const RESEND_SECONDS = 60;
const emailRule = ruleFrom(checkEmail);

/** 修改邮箱: a code sent to the new address, plus the current password (encrypted on the wire). */
export function EmailForm({ current }: { current: string | null }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [wait, setWait] = useState(0);
  const [sending, setSending] = useState(false);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (wait <= 0) return;
    const timer = setTimeout(() => setWait(wait - 1), 1000);
    return () => clearTimeout(timer);
  }, [wait]);

  const sendCode = async () => {
    const { email } = await form.validateFields(['email']).catch(() => ({ email: undefined }));
    if (!email) return;
    setSending(true);
    try {
      await sendEmailCode(email.trim());
      message.success('验证码已发送到新邮箱');
      setWait(RESEND_SECONDS);
    } catch (error) {
      showFieldErrors(form, error, ['email']);
    } finally {
      setSending(false);
    }
  };

  const submit = async (values: Values) => {
    setSaving(true);
    try {
      await updateEmail(values.code, values.email.trim(), values.password);
      await useSession.getState().getInfo();
      message.success('邮箱修改成功');
      form.resetFields();
      setWait(0);
    } catch (error) {
      showFieldErrors(form, error, { email: 'email', password: 'password', vercode: 'code' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form form={form} {...FORM_LAYOUT} onFinish={submit} scrollToFirstError={SCROLL_TO_ERROR} className="user-center-form" autoComplete="off">
      <Form.Item label="当前邮箱">
        <span>{current || '未设置'}</span>
      </Form.Item>
      <Form.Item label="新邮箱" name="email" rules={[{ required: true, message: '请输入新邮箱' }, emailRule]} validateTrigger="onBlur">
        <Input placeholder="请输入新邮箱" maxLength={100} />
      </Form.Item>
      <Form.Item label="验证码" required>
        <Space.Compact style={{ width: '100%' }}>
          <Form.Item name="code" noStyle rules={[{ required: true, message: '请输入验证码' }, { pattern: /^\d{6}$/, message: '验证码为6位数字' }]}>
            <Input placeholder="请输入邮箱验证码" maxLength={6} />
          </Form.Item>
          <Button onClick={() => void sendCode()} loading={sending} disabled={wait > 0}>
            {wait > 0 ? `${wait}秒后重发` : '获取验证码'}
          </Button>
        </Space.Compact>
      </Form.Item>
      <Form.Item label="当前密码" name="password" rules={[{ required: true, message: '请输入当前密码' }]}>
        <Input.Password placeholder="请输入当前密码" autoComplete="current-password" />
      </Form.Item>
      <Form.Item label=" " colon={false}>
        <Button type="primary" htmlType="submit" loading={saving}>
          修改邮箱
        </Button>
      </Form.Item>
    </Form>
  );
}
