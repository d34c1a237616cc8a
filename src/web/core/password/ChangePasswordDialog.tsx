import { App, Button, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { PASSWORD_DIALOG_WIDTH, PASSWORD_INPUT_WIDTH, PASSWORD_LABEL_WIDTH, PASSWORD_NOTICE_DURATION } from '../../../shared/constants';
import { useSession } from '../stores/session';
import { useSysConfig } from '../stores/sysconfig';
import { submitPasswordForm, type PasswordFormModel } from './password-form';

export interface ChangePasswordDialogProps {
  open: boolean;
  /** Empty: the user's own password. Set: another user's password (administrator). */
  username?: string;
  /** Whether the dialog may be dismissed; the forced weak-password change may not. */
  allowCancel?: boolean;
  /** Text shown above the fields (the weak-password reason). */
  notice?: string;
  onCancel?: () => void;
  /** Emitted after another user's password was changed (spec S8.E11). */
  onSuccess?: () => void;
}

/** The dialog shows only the new and the confirm password (spec S5.V4c). */
type Values = Pick<PasswordFormModel, 'newPass' | 'confirmPass'>;

/** Builds the new-password rule from system configuration (passwordReg with passwordRegTip). */
export function passwordRule(reg: string | undefined, tip: string | undefined) {
  let pattern: RegExp | undefined;
  try {
    pattern = reg ? new RegExp(reg) : undefined;
  } catch {
    pattern = undefined;
  }
  return {
    validator: (_: unknown, value: string) =>
      !value || !pattern || pattern.test(value) ? Promise.resolve() : Promise.reject(new Error(tip || '密码格式不正确')),
  };
}

/** The confirm-password rules: required (请再次输入密码) and equal to `newPass` (两次输入的密码不一致). */
export const confirmPasswordRules = [
  { required: true, message: '请再次输入密码' },
  ({ getFieldValue }: { getFieldValue: (name: string) => unknown }) => ({
    validator: (_: unknown, value: string) =>
      !value || value === getFieldValue('newPass') ? Promise.resolve() : Promise.reject(new Error('两次输入的密码不一致')),
  }),
];

/** The change-password dialog of spec §5: new and confirm password, checked on blur. */
export function ChangePasswordDialog({ open, username, allowCancel = true, notice, onCancel, onSuccess }: ChangePasswordDialogProps) {
  const [form] = Form.useForm<Values>();
  const [loading, setLoading] = useState(false);
  const { message } = App.useApp();
  const config = useSysConfig((s) => s.map);
  const logout = useSession((s) => s.logout);

  const submit = async () => {
    let values: Values;
    try {
      values = await form.validateFields();
    } catch (error) {
      const first = (error as { errorFields?: { name: (string | number)[] }[] }).errorFields?.[0];
      if (first) form.scrollToField(first.name, { behavior: 'smooth', block: 'center' });
      return;
    }
    setLoading(true);
    try {
      const mode = await submitPasswordForm({ username: username ?? '', newPass: values.newPass }, { skipErrorNotify: true });
      if (mode === 'other') {
        message.success('密码修改成功');
        form.resetFields();
        onSuccess?.();
      } else {
        message.success({ content: '密码修改成功，请重新登录', duration: PASSWORD_NOTICE_DURATION / 1000 });
        setTimeout(() => {
          void logout().then(() => window.location.assign('/web/login'));
        }, PASSWORD_NOTICE_DURATION);
      }
    } catch {
      // Spec S8.E9: a failed submit only stops the loading indicator.
    } finally {
      setLoading(false);
    }
  };

  return (
    <Modal
      open={open}
      title={username ? `修改用户“${username}”的密码` : '修改密码'}
      width={PASSWORD_DIALOG_WIDTH}
      mask={{ closable: false }}
      keyboard={false}
      closable={allowCancel}
      onCancel={allowCancel ? onCancel : undefined}
      destroyOnHidden
      footer={[
        allowCancel ? (
          <Button key="cancel" onClick={onCancel}>
            取消
          </Button>
        ) : null,
        <Button key="ok" type="primary" loading={loading} onClick={submit}>
          确认
        </Button>,
      ]}
    >
      {notice ? <p className="password-notice">{notice}</p> : null}
      <Form form={form} labelCol={{ flex: `${PASSWORD_LABEL_WIDTH}px` }} labelAlign="right" validateTrigger="onBlur" className="change-password-form">
        <Form.Item
          label="新密码"
          name="newPass"
          rules={[{ required: true, message: '请输入新密码' }, passwordRule(config.passwordReg, config.passwordRegTip)]}
        >
          <Input.Password style={{ width: PASSWORD_INPUT_WIDTH }} autoComplete="new-password" placeholder="请输入新密码" />
        </Form.Item>
        <Form.Item
          label="确认密码"
          name="confirmPass"
          dependencies={['newPass']}
          rules={confirmPasswordRules}
        >
          <Input.Password style={{ width: PASSWORD_INPUT_WIDTH }} autoComplete="new-password" placeholder="请再次输入密码" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
