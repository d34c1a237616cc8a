/**
 * 收费批次管理: the school's fee batches and their states (spec §4: 未配置 → 已配置 → 已开始 → 已关闭),
 * the actions each state allows to whoever holds the permission, and a batch's dashboard.
 */
import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Progress, Select, Space, Table, Tag, Tooltip } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { BatchState } from '../../../shared/constants';
import type { BatchView } from '../../../shared/dues/api';
import { Permission, useHasPermission } from '../../core/Permission';
import { useConfirmRun } from '../../core/useConfirmRun';
import { duesApi, duesKeys, percent } from './api';
import { yearOptions } from './years';
import './dues.css';

const BatchDetail = lazy(() => import('./BatchDetail'));
const CreateBatchDialog = lazy(() => import('./CreateBatchDialog'));

export const STATE_COLORS: Record<number, string> = { 1: 'default', 2: 'blue', 3: 'green', 4: 'purple' };

export default function BatchPage() {
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();
  const confirmRun = useConfirmRun();
  const [year, setYear] = useState<number>();
  const [creating, setCreating] = useState(false);
  const [detail, setDetail] = useState<number>();
  const list = useQuery({ queryKey: [...duesKeys.batches, year], queryFn: () => duesApi.batches(year) });
  const can = {
    configure: useHasPermission(['dues-batch:configure']),
    start: useHasPermission(['dues-batch:start']),
    close: useHasPermission(['dues-batch:close']),
    remove: useHasPermission(['dues-batch:delete']),
  };
  const refresh = () => void queryClient.invalidateQueries({ queryKey: duesKeys.all });

  const configure = async (b: BatchView, allowMissing = false) => {
    try {
      const r = await duesApi.configure(b, allowMissing);
      // The figures as the caller's scope reads them (the module answers none).
      const view = await duesApi.batch(b.id);
      message.success(`已配置：${view.members}名党员，应交${view.due}元${r.warnings.length ? `；${r.warnings.join('；')}` : ''}`);
      refresh();
    } catch (e) {
      const data = (e as { response?: { data?: { message?: string; missing?: { name: string; orgName: string | null }[]; missingCount?: number } } }).response?.data;
      if (!data?.missingCount) {
        message.error(data?.message ?? '配置失败');
        return;
      }
      modal.confirm({
        title: '部分党员没有党费标准',
        width: 560,
        content: (
          <div>
            <p>{data.message}</p>
            <ul className="dues-missing">{data.missing?.slice(0, 10).map((m, i) => <li key={i}>{`${m.name}（${m.orgName ?? '—'}）`}</li>)}</ul>
            <p>可以先到“党费管理”导入工资表或按规定生成；也可以仍然配置，这些党员不纳入本批次。</p>
          </div>
        ),
        okText: '仍然配置',
        cancelText: '取消',
        onOk: () => configure(b, true),
      });
    }
  };

  const act = (b: BatchView, action: 'start' | 'close' | 'remove') => {
    const text = { start: ['开始收缴', `开始收缴“${b.title}”后，党员即可查看并缴纳本批次党费，党费标准不再随标准修改而变化。`], close: ['关闭批次', `关闭“${b.title}”后，本批次的缴费、冲正、缓交和调整都不能再修改，更正只能计入以后的批次。`], remove: ['删除批次', `确定删除“${b.title}”吗？`] }[action];
    confirmRun({
      title: text[0],
      content: text[1],
      okText: text[0],
      danger: action !== 'start',
      run: () => (action === 'start' ? duesApi.start(b) : action === 'close' ? duesApi.close(b) : duesApi.remove(b.id)),
      success: `${text[0]}成功`,
      after: refresh,
    });
  };

  return (
    <div className="page-container dues-page">
      <div className="dues-toolbar">
        <Space wrap>
          <Select allowClear placeholder="全部年度" value={year} onChange={setYear} options={yearOptions()} style={{ width: 120 }} />
          <Permission roles={['dues-batch:add']}>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
              新建批次
            </Button>
          </Permission>
          <Tooltip title="刷新">
            <Button icon={<ReloadOutlined />} aria-label="刷新" onClick={refresh} />
          </Tooltip>
        </Space>
      </div>
      <Table<BatchView>
        rowKey="id"
        size="small"
        className="dues-batches"
        loading={list.isLoading}
        dataSource={list.data}
        pagination={{ pageSize: 12, showTotal: (t) => `共 ${t} 个批次` }}
        columns={[
          { title: '收费批次', dataIndex: 'title', width: 170, render: (t: string, b) => <a onClick={() => setDetail(b.id)}>{t}</a> },
          { title: '状态', dataIndex: 'stateLabel', width: 90, render: (l: string, b) => <Tag color={STATE_COLORS[b.state]}>{l}</Tag> },
          { title: '应缴人数', dataIndex: 'members', width: 90, align: 'right' },
          { title: '已缴人数', dataIndex: 'paidMembers', width: 90, align: 'right' },
          { title: '缓交', dataIndex: 'deferred', width: 70, align: 'right' },
          { title: '应交（元）', dataIndex: 'due', width: 120, align: 'right' },
          { title: '实交（元）', dataIndex: 'paid', width: 120, align: 'right' },
          { title: '缴纳率', dataIndex: 'rate', width: 160, render: (r: number, b) => (b.members ? <Progress percent={Number((r * 100).toFixed(1))} size="small" format={() => percent(r)} /> : '—') },
          {
            title: '操作',
            key: 'actions',
            width: 260,
            render: (_, b) => (
              <Space size={4} className="dues-batch-actions">
                <Button size="small" type="link" onClick={() => setDetail(b.id)}>
                  查看
                </Button>
                {can.configure && b.state <= BatchState.CONFIGURED && (
                  <Button size="small" type="link" onClick={() => void configure(b)}>
                    {b.state === BatchState.CONFIGURED ? '重新配置' : '配置'}
                  </Button>
                )}
                {can.start && b.state === BatchState.CONFIGURED && (
                  <Button size="small" type="link" onClick={() => act(b, 'start')}>
                    开始收缴
                  </Button>
                )}
                {can.close && b.state === BatchState.STARTED && (
                  <Button size="small" type="link" danger onClick={() => act(b, 'close')}>
                    关闭
                  </Button>
                )}
                {can.remove && b.state <= BatchState.CONFIGURED && (
                  <Button size="small" type="link" danger onClick={() => act(b, 'remove')}>
                    删除
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />
      <Suspense fallback={null}>
        {creating && <CreateBatchDialog onClose={(created) => (setCreating(false), created && refresh())} />}
        {detail !== undefined && <BatchDetail id={detail} onClose={() => setDetail(undefined)} />}
      </Suspense>
    </div>
  );
}
