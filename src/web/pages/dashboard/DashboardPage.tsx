import { NotificationOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useConfirmDiscard } from '../../core/confirm-discard';
import { useHasPermission } from '../../core/Permission';
import { useSession } from '../../core/stores/session';
import { useConfigFlag } from '../../core/stores/sysconfig';
import { ApprovalCard, DocumentCard, FiguresCard, MineCard, NoticeCard, ReminderCard, ShortcutCard, TodoCard } from './cards';
import { workbenchApi } from './workbench-api';
import { REMINDER_LIST } from '../../../shared/reminders';
import './dashboard.css';

/** An administrator publishes a notice: a message of type notice to every role's members. */
function PublishNotice() {
  const [open, setOpen] = useState(false);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<{ title: string; content: string }>();
  const { message } = App.useApp();
  const confirmDiscard = useConfirmDiscard();
  const queryClient = useQueryClient();
  const submit = async () => {
    const values = await form.validateFields();
    setSaving(true);
    try {
      const roleIds = (await workbenchApi.roles()).map((r) => r.id);
      await workbenchApi.publishNotice({ ...values, roleIds });
      message.success('公告已发布');
      setOpen(false);
      void queryClient.invalidateQueries({ queryKey: ['workbench', 'notices'] });
    } finally {
      setSaving(false);
    }
  };
  return (
    <>
      <Button size="small" type="link" icon={<NotificationOutlined />} onClick={() => setOpen(true)}>
        发布公告
      </Button>
      <Modal open={open} title="发布公告" okText="发布" confirmLoading={saving} onOk={() => void submit()} onCancel={() => confirmDiscard(form.isFieldsTouched(), () => setOpen(false))} mask={{ closable: false }} keyboard={false} destroyOnHidden>
        <Form form={form} layout="vertical" preserve={false} className="wb-publish">
          <Form.Item name="title" label="标题" rules={[{ required: true, whitespace: true, message: '请输入公告标题' }, { max: 200, message: '标题不能超过200个字符' }]}>
            <Input maxLength={200} />
          </Form.Item>
          <Form.Item name="content" label="内容" rules={[{ max: 5000, message: '内容不能超过5000个字符' }]}>
            <Input.TextArea rows={6} maxLength={5000} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}

/**
 * The home page (首页, the /home/home of spec §2): the workbench each role starts from. Every card shows only
 * what the role's menu lets it open, with figures from the APIs of those pages (greyed in mourning mode).
 */
export default function DashboardPage() {
  const user = useSession((s) => s.user);
  const isDead = useConfigFlag('isDead');
  const mayPublish = useHasPermission(['msg:send']);
  const hasReminders = useHasPermission([REMINDER_LIST]);
  return (
    <div className={`page-container dashboard workbench${isDead ? ' is-dead' : ''}`}>
      <Typography.Title level={4}>欢迎，{user?.nickName ?? user?.username}</Typography.Title>
      <div className="wb-layout">
        <div className="wb-main">
          <div className="wb-pair">
            <TodoCard />
            {hasReminders && <ReminderCard />}
          </div>
          <MineCard />
          <FiguresCard />
          <ApprovalCard />
        </div>
        <div className="wb-side">
          <ShortcutCard />
          <NoticeCard extra={mayPublish ? <PublishNotice /> : undefined} />
          <DocumentCard />
        </div>
      </div>
    </div>
  );
}
