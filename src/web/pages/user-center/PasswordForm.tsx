import { App, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { PASSWORD_NOTICE_DURATION } from '../../../shared/constants';
import { confirmPasswordRules, passwordRule } from '../../core/password/ChangePasswordDialog';
import { useSysConfig } from '../../core/stores/sysconfig';
import { signOut } from '../../core/ukey/sign-out';
import { submitPasswordForm, type PasswordFormModel } from '../../core/password/password-form';
import { showFieldErrors } from './api';
import { FORM_LAYOUT, SCROLL_TO_ERROR } from './rules';

type Values = Pick<PasswordFormModel, 'oldPass' | 'newPass' | 'confirmPass'>;

/**
 * 修改密码: old, new and confirm (spec §5 rules, passwordReg/passwordRegTip from system configuration).
 * After the change every session of the user ends: the notice shows for 1.5 s, then logout.
 */
export function PasswordForm() {
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const [done, setDone] = useState(false);
  const config = useSysConfig((s) => s.map);

  const submit = async (values: Values) => {
    setSaving(true);
    try {
      await submitPasswordForm({ oldPass: values.oldPass, newPass: values.newPass }); // own account: no username
      setDone(true);
      message.success({ content: '密码修改成功，请重新登录', duration: PASSWORD_NOTICE_DURATION / 1000 });
      setTimeout(() => void signOut(), PASSWORD_NOTICE_DURATION);
    } catch (error) {
      showFieldErrors(form, error, ['oldPass', 'newPass']);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form form={form} {...FORM_LAYOUT} onFinish={submit} validateTrigger="onBlur" scrollToFirstError={SCROLL_TO_ERROR} className="user-center-form" autoComplete="off">
      <Form.Item label="旧密码" name="oldPass" rules={[{ required: true, message: '请输入旧密码' }]}>
        <Input.Password placeholder="请输入旧密码" autoComplete="current-password" />
      </Form.Item>
      <Form.Item label="新密码" name="newPass" rules={[{ required: true, message: '请输入新密码' }, passwordRule(config.passwordReg, config.passwordRegTip)]}>
        <Input.Password placeholder="请输入新密码" autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        label="确认密码"
        name="confirmPass"
        dependencies={['newPass']}
        rules={confirmPasswordRules}
      >
        <Input.Password placeholder="请再次输入密码" autoComplete="new-password" />
      </Form.Item>
      <Form.Item label=" " colon={false}>
        <Button type="primary" htmlType="submit" loading={saving} disabled={done}>
          修改密码
        </Button>
      </Form.Item>
    </Form>
  );
}
