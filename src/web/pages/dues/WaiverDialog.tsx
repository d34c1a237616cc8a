/**
 * 登记免交: closed months a member cannot pay back (unpaid too long without a proper reason) are exempted
 * with the committee's approval (中组发〔2008〕3号 第七条), recorded with the reason and the approval.
 */
import { App, Checkbox, Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import type { OnsiteMember } from '../../../shared/dues/api';
import { duesApi, monthText } from './api';

export function WaiverDialog({ member, onClose }: { member: OnsiteMember; onClose: (done: boolean) => void }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<{ itemIds: number[]; reason: string; approval: string }>();
  const [saving, setSaving] = useState(false);
  const save = async () => {
    const values = await form.validateFields();
    setSaving(true);
    try {
      message.success((await duesApi.waive(member.memberId, values)).message);
      onClose(true);
    } catch {
      // Shown by the request layer.
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal open title={`登记免交：${member.name}`} okText="登记免交" confirmLoading={saving} onOk={() => void save()} onCancel={() => onClose(false)} mask={{ closable: false }} keyboard={false} destroyOnHidden>
      <Typography.Paragraph type="secondary">对经济确有困难的党员，经党支部研究，报上一级党委批准后，可以少交或免交党费（中组发〔2008〕3号 第七条）。免交后这些月份不再计入欠缴。</Typography.Paragraph>
      <Form form={form} layout="vertical" initialValues={{ itemIds: member.overdue.map((o) => o.itemId) }}>
        <Form.Item name="itemIds" label="免交月份" rules={[{ required: true, message: '请选择免交的月份' }]}>
          <Checkbox.Group options={member.overdue.map((o) => ({ value: o.itemId, label: `${o.months.map(monthText).join('、')} ${o.due}元` }))} />
        </Form.Item>
        <Form.Item name="reason" label="免交原因" rules={[{ required: true, whitespace: true, message: '请填写免交原因' }]}>
          <Input.TextArea maxLength={200} rows={2} />
        </Form.Item>
        <Form.Item name="approval" label="上级党委批准情况" rules={[{ required: true, whitespace: true, message: '请填写上级党委的批准情况' }]}>
          <Input maxLength={100} placeholder="批准单位和文号，如：某某学院党委〔2026〕3号" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
