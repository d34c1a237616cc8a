/** 新建批次: a month (or a quarter) of the school; it starts 未配置. */
import { App, Form, Input, Modal, Radio, Select } from 'antd';
import { useState } from 'react';
import { duesApi } from './api';
import { yearOptions } from './years';

export default function CreateBatchDialog({ onClose }: { onClose: (created: boolean) => void }) {
  const { message } = App.useApp();
  const now = new Date();
  const [year, setYear] = useState(now.getMonth() === 11 ? now.getFullYear() + 1 : now.getFullYear());
  const [months, setMonths] = useState(1);
  const [month, setMonth] = useState(now.getMonth() === 11 ? 1 : now.getMonth() + 2);
  const [remark, setRemark] = useState('');
  const [saving, setSaving] = useState(false);
  const monthOptions = Array.from({ length: 12 }, (_x, i) => i + 1)
    .filter((m) => months === 1 || (m - 1) % 3 === 0)
    .map((m) => ({ value: m, label: months === 1 ? `${m}月` : `第${(m - 1) / 3 + 1}季度（${m}-${m + 2}月）` }));

  const save = async () => {
    setSaving(true);
    try {
      const batch = await duesApi.createBatch(`${year}-${String(month).padStart(2, '0')}`, months, remark);
      message.success(`已新建“${batch.title}”`);
      onClose(true);
    } catch {
      // Shown by the request layer.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal open title="新建收费批次" okText="新建" cancelText="取消" confirmLoading={saving} onOk={() => void save()} onCancel={() => onClose(false)} mask={{ closable: false }} keyboard={false}>
      <Form layout="horizontal" labelCol={{ span: 5 }} className="dues-create-batch">
        <Form.Item label="收费周期">
          <Radio.Group value={months} onChange={(e) => (setMonths(e.target.value), setMonth(1))} options={[{ value: 1, label: '按月' }, { value: 3, label: '按季' }]} />
        </Form.Item>
        <Form.Item label="年度">
          <Select value={year} onChange={setYear} options={yearOptions()} style={{ width: 140 }} aria-label="批次年度" />
        </Form.Item>
        <Form.Item label={months === 1 ? '月份' : '季度'}>
          <Select value={month} onChange={setMonth} options={monthOptions} style={{ width: 220 }} aria-label="批次月份" />
        </Form.Item>
        <Form.Item label="备注">
          <Input.TextArea value={remark} onChange={(e) => setRemark(e.target.value)} maxLength={200} rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
