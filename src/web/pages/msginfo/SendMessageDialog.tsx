import { useQuery } from '@tanstack/react-query';
import { App, Form, Input, Modal, Radio, Select, Spin } from 'antd';
import { useMemo, useState } from 'react';
import { debounce } from '../../../shared/format';
import { useConfirmDiscard } from '../../core/confirm-discard';
import { useHasPermission } from '../../core/Permission';
import { allRoles, searchUsers, sendMessage } from './api';

interface Values {
  to: 'users' | 'roles';
  /** labelInValue: a picked user keeps their name when the search shows others. */
  userIds?: { value: number; label: string }[];
  roleIds?: number[];
  title: string;
  content?: string;
}

const SEARCH_DELAY_MS = 300;

/** Who may write to whole roles (anyone signed in may write to people). */
export const SEND_TO_ROLES = ['msg:send'];

/** 发私信: to users picked by a fuzzy search, or (with msg:send) to every member of roles. */
export function SendMessageDialog({ open, onClose, onSent }: { open: boolean; onClose: () => void; onSent: () => void }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const confirmDiscard = useConfirmDiscard();
  const [saving, setSaving] = useState(false);
  const [keyword, setKeyword] = useState('');
  const toRoles = useHasPermission(SEND_TO_ROLES);
  const to = Form.useWatch('to', form) ?? 'users';

  const users = useQuery({ queryKey: ['msg-recipients', keyword], queryFn: () => searchUsers(keyword), enabled: open && to === 'users', staleTime: 30_000 });
  const roles = useQuery({ queryKey: ['msg-roles'], queryFn: allRoles, enabled: open && to === 'roles' && toRoles, staleTime: 60_000 });
  const search = useMemo(() => debounce((v: string) => setKeyword(v), SEARCH_DELAY_MS), []);

  const submit = async () => {
    const values = await form.validateFields().catch((error: { errorFields?: { name: (string | number)[] }[] }) => {
      const first = error.errorFields?.[0];
      if (first) form.scrollToField(first.name, { behavior: 'smooth', block: 'center' });
      return undefined;
    });
    if (!values) return;
    setSaving(true);
    try {
      const answer = await sendMessage({
        ...(values.to === 'roles' ? { roleIds: values.roleIds } : { userIds: values.userIds?.map((u) => u.value) }),
        title: values.title.trim(),
        content: values.content?.trim() || undefined,
      });
      message.success(`已发送给${answer.totalElements}人`);
      form.resetFields();
      onSent();
      onClose();
    } catch {
      // the request layer has shown the server's message
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal open={open} title="发私信" width={600} okText="发送" onOk={() => void submit()} confirmLoading={saving} onCancel={() => confirmDiscard(form.isFieldsTouched(), onClose)} mask={{ closable: false }} keyboard={false} destroyOnHidden forceRender>
      <Form form={form} labelCol={{ flex: '88px' }} initialValues={{ to: 'users' }} className="send-message-form">
        {toRoles ? (
          <Form.Item label="发送给" name="to">
            <Radio.Group options={[{ value: 'users', label: '指定用户' }, { value: 'roles', label: '按角色' }]} />
          </Form.Item>
        ) : null}
        {to === 'users' ? (
          <Form.Item label="接收人" name="userIds" rules={[{ required: true, type: 'array', min: 1, message: '请选择接收人' }]}>
            <Select
              mode="multiple"
              labelInValue
              showSearch={{ filterOption: false, onSearch: search }}
              placeholder="输入姓名、用户名或手机号搜索"
              notFoundContent={users.isFetching ? <Spin size="small" /> : '没有找到用户'}
              options={(users.data?.content ?? []).map((u) => ({ value: u.id, label: `${u.nickName}（${u.username}）` }))}
              onBlur={() => setKeyword('')}
            />
          </Form.Item>
        ) : (
          <Form.Item label="接收角色" name="roleIds" rules={[{ required: true, type: 'array', min: 1, message: '请选择接收角色' }]}>
            <Select mode="multiple" placeholder="请选择角色" loading={roles.isFetching} options={(roles.data ?? []).map((r) => ({ value: r.id, label: r.name }))} showSearch={{ optionFilterProp: 'label' }} />
          </Form.Item>
        )}
        <Form.Item label="标题" name="title" rules={[{ required: true, whitespace: true, message: '请输入标题' }, { max: 200, message: '标题不能超过200个字符' }]}>
          <Input placeholder="请输入标题" maxLength={200} />
        </Form.Item>
        <Form.Item label="内容" name="content" rules={[{ max: 5000, message: '内容不能超过5000个字符' }]}>
          <Input.TextArea placeholder="请输入内容" rows={5} maxLength={5000} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}
