/** 座位编排与分组: a seat plan and discussion groups for an exam or a class, printable. */
import { PrinterOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Form, Input, InputNumber, Radio, Select, Space, Tag } from 'antd';
import { useState } from 'react';
import { useHasPermission } from '../../core/Permission';
import { RecordPicker } from './RecordPicker';
import { pschoolAdminApi } from './api';
import './pschool.css';

export default function SeatingPage() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const canEdit = useHasPermission(['pschool-seating:edit']);
  const [kind, setKind] = useState<'exam' | 'class'>('exam');
  const [id, setId] = useState<number>();
  const plan = useQuery({ queryKey: ['pschool-admin', 'seating', kind, id], queryFn: () => pschoolAdminApi.seating(kind, id!), enabled: !!id });
  const arrange = useMutation({
    mutationFn: (v: Record<string, unknown>) => pschoolAdminApi.arrange(kind, id!, v),
    onSuccess: () => {
      message.success('已编排');
      void queryClient.invalidateQueries({ queryKey: ['pschool-admin', 'seating', kind, id] });
    },
  });
  const p = plan.data?.plan;
  return (
    <div className="page-container">
      <Space wrap className="ps-no-print" style={{ marginBottom: 12 }}>
        <Radio.Group value={kind} onChange={(e) => { setKind(e.target.value); setId(undefined); }} options={[{ value: 'exam', label: '考试' }, { value: 'class', label: '培训班' }]} optionType="button" />
        <RecordPicker key={kind} module={kind === 'exam' ? 'exam' : 'pschool-class'} placeholder={kind === 'exam' ? '选择考试' : '选择培训班'} value={id} onChange={setId} />
        {p && <Button icon={<PrinterOutlined />} onClick={() => window.print()}>打印座位表</Button>}
      </Space>
      {!id ? <Empty description="选择考试或培训班后编排座位与分组" /> : (
        <>
          {canEdit && (
            <Card size="small" className="ps-no-print" style={{ marginBottom: 12 }}>
              <Form layout="inline" initialValues={{ room: p?.room ?? '', rows: p?.rows ?? 6, cols: p?.cols ?? 8, mode: p?.mode ?? (kind === 'exam' ? 'spread' : 'branch'), groupMode: 'branch' }} onFinish={(v) => arrange.mutate(v)} key={`${kind}-${id}-${p?.rows ?? ''}`}>
                <Form.Item name="room" label="考场/教室"><Input maxLength={100} style={{ width: 140 }} /></Form.Item>
                <Form.Item name="rows" label="行数" rules={[{ required: true }]}><InputNumber min={1} max={50} /></Form.Item>
                <Form.Item name="cols" label="列数" rules={[{ required: true }]}><InputNumber min={1} max={50} /></Form.Item>
                <Form.Item name="mode" label="座位编排"><Select style={{ width: 150 }} options={[{ value: 'random', label: '随机' }, { value: 'branch', label: '同一支部相邻' }, { value: 'spread', label: '同一支部分开' }]} /></Form.Item>
                <Form.Item name="groupCount" label="分组数"><InputNumber min={1} max={100} placeholder="不分组" /></Form.Item>
                <Form.Item name="groupMode" label="分组方式"><Select style={{ width: 130 }} options={[{ value: 'random', label: '随机' }, { value: 'branch', label: '按支部' }]} /></Form.Item>
                <Button type="primary" htmlType="submit" loading={arrange.isPending}>编排</Button>
              </Form>
            </Card>
          )}
          <h3>{plan.data?.title} 座位表 {p?.room && `· ${p.room}`} <Tag>{plan.data?.people ?? 0}人</Tag></h3>
          {!p ? <Empty description="尚未编排" /> : (
            <>
              <div className="ps-seat-grid" style={{ gridTemplateColumns: `repeat(${p.cols}, minmax(72px, 1fr))` }} data-testid="seat-grid">
                {Array.from({ length: p.rows * p.cols }, (_, i) => {
                  const s = p.seats.find((x) => (x.row - 1) * p.cols + (x.col - 1) === i);
                  return (
                    <div className="ps-seat" key={i}>
                      <span className="ps-muted">{Math.floor(i / p.cols) + 1}排{(i % p.cols) + 1}座</span>
                      {s && <b>{s.name}</b>}
                      {s?.orgName && <span className="ps-muted">{s.orgName}</span>}
                    </div>
                  );
                })}
              </div>
              {p.groups.length > 0 && (
                <>
                  <h3 style={{ marginTop: 16 }}>讨论分组</h3>
                  <div className="ps-grid">
                    {p.groups.map((g, i) => (
                      <Card key={i} size="small" title={`第${i + 1}组（${g.length}人）`}>{g.map((m) => m.name).join('、')}</Card>
                    ))}
                  </div>
                </>
              )}
            </>
          )}
        </>
      )}
    </div>
  );
}
