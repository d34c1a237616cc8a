import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Form, Input, Select, Space, Table, Tabs, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { localToday } from '../../../shared/module-schema/computed';
import { useHasPermission } from '../../core/Permission';
import { get, post } from '../../core/request/request';
import { FormModal } from '../system/shared/FormModal';

interface LostRow {
  memberId: number;
  name: string;
  orgId: number | null;
  orgName: string | null;
  lastContact: string;
}
interface StoppedRow {
  memberId: number;
  name: string;
  orgName: string | null;
  decidedOn: string | null;
  reason: string | null;
}
interface AwayRow {
  memberId: number;
  name: string;
  orgName: string | null;
  awaySince: string;
  place: string | null;
}
interface LapseRow {
  memberId: number;
  name: string;
  orgId: number;
  months: string[];
}

type Dialog = { kind: 'contact' | 'stop' | 'restore'; member: { memberId: number; name: string } };
const DIALOG_TITLES = { contact: '登记联系', stop: '停止党籍', restore: '恢复党籍' };
const WAYS = ['面谈', '电话', '微信', '短信', '信函', '其他'];

/**
 * 失联党员: members six months out of touch (to find, or to stop their party standing), members whose
 * standing was stopped (to restore), members away six months without a floating registration, and the
 * 自行脱党 candidates of the dues area.
 */
export default function LostContactPage() {
  const { message } = App.useApp();
  const client = useQueryClient();
  const canContact = useHasPermission(['lost-contact:contact']);
  const canStop = useHasPermission(['lost-contact:stop']);
  const [dialog, setDialog] = useState<Dialog>();
  const [form] = Form.useForm();
  const lost = useQuery({ queryKey: ['lost-contact'], queryFn: () => get<LostRow[]>('/api/transfers/lost-contact') });
  const stopped = useQuery({ queryKey: ['lost-contact-stopped'], queryFn: () => get<StoppedRow[]>('/api/transfers/stopped') });
  const away = useQuery({ queryKey: ['lost-contact-away'], queryFn: () => get<AwayRow[]>('/api/transfers/floating-suggestions'), retry: false });
  const lapse = useQuery({ queryKey: ['lost-contact-lapse'], queryFn: () => get<{ available: boolean; content: LapseRow[] }>('/api/transfers/lapse-candidates') });

  const open = (kind: Dialog['kind'], member: Dialog['member']) => {
    form.resetFields();
    form.setFieldsValue(kind === 'contact' ? { contactDate: localToday(), way: '电话' } : { decidedOn: localToday() });
    setDialog({ kind, member });
  };
  const submit = async (values: Record<string, string>) => {
    const { kind, member } = dialog!;
    if (kind === 'contact') await post('/api/m/member-contact', { memberId: member.memberId, ...values });
    else await post(`/api/transfers/lost-contact/${member.memberId}/${kind}`, values);
    message.success(`${member.name}：${DIALOG_TITLES[kind]}成功`);
    setDialog(undefined);
    await client.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith('lost-contact') });
  };

  const lostColumns: ColumnsType<LostRow> = [
    { title: '姓名', dataIndex: 'name', width: 120 },
    { title: '所在党支部', dataIndex: 'orgName' },
    { title: '最后联系日期', dataIndex: 'lastContact', width: 140 },
    {
      title: '操作',
      key: 'actions',
      width: 220,
      render: (_v, row) => (
        <Space>
          {canContact && <Button size="small" onClick={() => open('contact', row)}>登记联系</Button>}
          {canStop && <Button size="small" danger onClick={() => open('stop', row)}>停止党籍</Button>}
        </Space>
      ),
    },
  ];
  const stoppedColumns: ColumnsType<StoppedRow> = [
    { title: '姓名', dataIndex: 'name', width: 120 },
    { title: '所在党支部', dataIndex: 'orgName' },
    { title: '停止党籍日期', dataIndex: 'decidedOn', width: 140 },
    { title: '理由', dataIndex: 'reason' },
    { title: '操作', key: 'actions', width: 120, render: (_v, row) => canStop && <Button size="small" onClick={() => open('restore', row)}>恢复党籍</Button> },
  ];
  const awayColumns: ColumnsType<AwayRow> = [
    { title: '姓名', dataIndex: 'name', width: 120 },
    { title: '所在党支部', dataIndex: 'orgName' },
    { title: '外出日期', dataIndex: 'awaySince', width: 140 },
    { title: '所在地', dataIndex: 'place' },
  ];
  const lapseColumns: ColumnsType<LapseRow> = [
    { title: '姓名', dataIndex: 'name', width: 120 },
    { title: '连续未交党费月份', dataIndex: 'months', render: (months: string[]) => months.map((m) => <Tag key={m}>{m}</Tag>) },
  ];

  return (
    <div className="page-container lost-contact-page">
      <Tabs
        items={[
          {
            key: 'lost',
            label: `失去联系6个月以上（${lost.data?.length ?? 0}）`,
            children: (
              <>
                <Alert
                  type="info"
                  showIcon
                  style={{ marginBottom: 12 }}
                  title="对失去联系的党员，党组织应当通过各种方式查找；失去联系6个月以上、通过各种方式查找仍然没有取得联系的，予以停止党籍（《中国共产党党员教育管理工作条例》）。"
                />
                <Table<LostRow> rowKey="memberId" size="small" loading={lost.isLoading} dataSource={lost.data} columns={lostColumns} pagination={{ pageSize: 20, showTotal: (n) => `共 ${n} 人` }} />
              </>
            ),
          },
          {
            key: 'stopped',
            label: `已停止党籍（${stopped.data?.length ?? 0}）`,
            children: <Table<StoppedRow> rowKey="memberId" size="small" loading={stopped.isLoading} dataSource={stopped.data} columns={stoppedColumns} pagination={{ pageSize: 20 }} />,
          },
          {
            key: 'away',
            label: `外出6个月以上未登记流动（${away.data?.length ?? 0}）`,
            children: (
              <>
                <Alert
                  type="info"
                  showIcon
                  style={{ marginBottom: 12 }}
                  title={<>党员外出6个月以上、地点相对固定的，应当转移组织关系或作为流动党员管理。请到 <Link to="/transfer/floating">流动党员</Link> 登记外出流动。</>}
                />
                <Table<AwayRow> rowKey="memberId" size="small" loading={away.isLoading} dataSource={away.data} columns={awayColumns} pagination={{ pageSize: 20 }} />
              </>
            ),
          },
          {
            key: 'lapse',
            label: `自行脱党候选（${lapse.data?.content.length ?? 0}）`,
            children: lapse.data && !lapse.data.available ? (
              <Alert type="warning" showIcon title="党费模块尚未记录缴费：接入后，连续6个月无正当理由不交纳党费的党员将在此列出（《中国共产党章程》第九条）。" />
            ) : (
              <Table<LapseRow> rowKey="memberId" size="small" loading={lapse.isLoading} dataSource={lapse.data?.content} columns={lapseColumns} pagination={{ pageSize: 20 }} />
            ),
          },
        ]}
      />
      <FormModal open={!!dialog} title={dialog ? `${DIALOG_TITLES[dialog.kind]}：${dialog.member.name}` : ''} form={form} onSubmit={submit} onCancel={() => setDialog(undefined)}>
        {dialog?.kind === 'contact' ? (
          <>
            <Form.Item name="contactDate" label="联系日期" rules={[{ required: true, message: '请填写联系日期' }]}>
              <Input type="date" />
            </Form.Item>
            <Form.Item name="way" label="联系方式" rules={[{ required: true, message: '请选择联系方式' }]}>
              <Select options={WAYS.map((w) => ({ value: w, label: w }))} />
            </Form.Item>
            <Form.Item name="note" label="联系情况">
              <Input.TextArea rows={3} maxLength={500} />
            </Form.Item>
          </>
        ) : (
          <>
            <Form.Item name="decidedOn" label="决定日期" rules={[{ required: true, message: '请填写决定日期' }]}>
              <Input type="date" />
            </Form.Item>
            <Form.Item name="reason" label="理由" rules={[{ required: true, message: '请填写理由' }]}>
              <Input.TextArea rows={3} maxLength={500} placeholder={dialog?.kind === 'stop' ? '如：失去联系6个月以上，经多方查找仍未取得联系' : '如：本人主动联系，经教育帮助符合恢复条件'} />
            </Form.Item>
          </>
        )}
      </FormModal>
    </div>
  );
}
