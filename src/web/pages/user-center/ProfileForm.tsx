import { App, Button, Form, Input, Radio } from 'antd';
import { useState } from 'react';
import { checkMobile } from '../../../shared/validators';
import { useDict } from '../../core/dicts';
import { useSession, type SessionUser } from '../../core/stores/session';
import { saveProfile, showFieldErrors, type ProfileValues } from './api';
import { FORM_LAYOUT, SCROLL_TO_ERROR, ruleFrom } from './rules';

/** The server's session user also carries the gender code (DJ_COMM_XB). */
export type CenterUser = SessionUser & { gender?: string | null };

const mobileRule = ruleFrom(checkMobile);

/** 基本资料: name, mobile number and gender (`PUT api/users/center`). */
export function ProfileForm({ user }: { user: CenterUser }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<ProfileValues>();
  const [saving, setSaving] = useState(false);
  const gender = useDict('DJ_COMM_XB');

  const submit = async (values: ProfileValues) => {
    setSaving(true);
    try {
      await saveProfile({ nickName: values.nickName.trim(), phone: values.phone?.trim() || null, gender: values.gender ?? null });
      await useSession.getState().getInfo();
      message.success('保存成功');
    } catch (error) {
      showFieldErrors(form, error, ['nickName', 'phone', 'gender']);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form form={form} {...FORM_LAYOUT} initialValues={{ nickName: user.nickName, phone: user.phone, gender: user.gender ?? undefined }} onFinish={submit} scrollToFirstError={SCROLL_TO_ERROR} className="user-center-form">
      <Form.Item label="用户名">
        <span>{user.username}</span>
      </Form.Item>
      <Form.Item label="姓名" name="nickName" rules={[{ required: true, whitespace: true, message: '请输入姓名' }, { max: 32, message: '姓名不能超过32个字符' }]}>
        <Input placeholder="请输入姓名" maxLength={32} />
      </Form.Item>
      <Form.Item label="手机号码" name="phone" rules={[mobileRule]} validateTrigger="onBlur">
        <Input placeholder="请输入手机号码" maxLength={11} />
      </Form.Item>
      <Form.Item label="性别" name="gender">
        <Radio.Group options={gender.options} />
      </Form.Item>
      <Form.Item label=" " colon={false}>
        <Button type="primary" htmlType="submit" loading={saving}>
          保存
        </Button>
      </Form.Item>
    </Form>
  );
}
