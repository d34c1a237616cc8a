/**
 * The collector's view of one form: each organisation's state, its answer, 退回 with a comment, 接收,
 * 代为填报 from an xlsx (join type user import 2); 提醒未提交 (to-dos), 导出 (one workbook), 停止填报.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Drawer, Input, Modal, Popconfirm, Space, Table, Tag, Upload } from 'antd';
import type { AxiosError } from 'axios';
import { useState } from 'react';
import { CollectStatus } from '../../../shared/constants';
import { FILL_WAY_LABELS } from '../../../shared/form-fill';
import JobProgress from '../../core/jobs/JobProgress';
import { useJobParam } from '../../core/jobs/useJob';
import { errorText } from '../../core/request/request';
import { FORMS_KEY, formsApi, type FormSummary, type Progress } from './api';
import { FillPanel } from './FillPanel';
import { STATE_COLORS, isSharing, stateLabel } from './states';

export function ProgressPanel({ form }: { form: FormSummary }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const progress = useQuery({ queryKey: [FORMS_KEY, form.id, 'progress'], queryFn: () => formsApi.progress(form.id) });
  const [returning, setReturning] = useState<Progress>();
  const [comment, setComment] = useState('');
  const [viewing, setViewing] = useState<Progress>();
  const sharing = isSharing(form.shareState);
  // A big export runs as a job: its progress and file here (and on 填报管理, where its message leads).
  const [jobId, setJobId] = useJobParam();
  const run = async (work: () => Promise<unknown>, done: string) => {
    try {
      await work();
      message.success(done);
      void queryClient.invalidateQueries({ queryKey: [FORMS_KEY] });
    } catch (error) {
      message.error(errorText(error as AxiosError<{ message?: string }>));
    }
  };
  const rows = progress.data ?? [];
  const count = (s: number) => rows.filter((r) => r.state === s).length;
  return (
    <>
      {jobId !== undefined && <JobProgress id={jobId} onClose={() => setJobId(undefined)} />}
      <Space wrap style={{ marginBottom: 12 }}>
        {[CollectStatus.NO_START, CollectStatus.STASHED_END, CollectStatus.COLLECT_END, CollectStatus.IMPORT_END].map((s) => (
          <Tag key={s} color={STATE_COLORS[s]}>{stateLabel(s)} {count(s)}</Tag>
        ))}
        {sharing && <Button onClick={() => run(async () => { const r = await formsApi.remind(form.id); message.info(`已提醒 ${r.organisations} 个组织`); }, '提醒已发送')}>提醒未提交</Button>}
        <Button onClick={() => void formsApi.exportAnswers(form.id, form.title).then(({ jobId }) => jobId && setJobId(jobId))}>导出</Button>
        {sharing && (
          <Popconfirm title="停止填报后，所有组织都不能再修改，确定停止吗？" onConfirm={() => run(() => formsApi.stop(form.id), '已停止填报')}>
            <Button danger>停止填报</Button>
          </Popconfirm>
        )}
      </Space>
      <Table<Progress>
        rowKey="orgId"
        size="small"
        loading={progress.isLoading}
        dataSource={rows}
        pagination={{ pageSize: 20, showSizeChanger: false }}
        columns={[
          { title: '组织', dataIndex: 'orgName', render: (v: string | null, r) => v ?? r.orgId },
          { title: '状态', dataIndex: 'state', width: 100, render: (s: number, p: Progress) => <Tag color={STATE_COLORS[s]}>{stateLabel(s, p.comment)}</Tag> },
          { title: '方式', dataIndex: 'joinType', width: 90, render: (j: number | null) => (j ? FILL_WAY_LABELS[j] : '') },
          { title: '版本', dataIndex: 'schemaVersion', width: 60 },
          { title: '退回意见', dataIndex: 'comment', ellipsis: true },
          {
            title: '操作', key: 'actions', width: 260,
            render: (_, r) => (
              <Space size={0} wrap>
                <Button type="link" size="small" onClick={() => setViewing(r)}>查看</Button>
                {sharing && r.state === CollectStatus.COLLECT_END && (
                  <>
                    <Button type="link" size="small" onClick={() => { setComment(''); setReturning(r); }}>退回</Button>
                    <Button type="link" size="small" onClick={() => run(() => formsApi.decide(form.id, 'accept', r.orgId), '已接收')}>接收</Button>
                  </>
                )}
                {sharing && r.state <= CollectStatus.STASHED_END && (
                  <Upload accept=".xlsx" showUploadList={false} beforeUpload={(file) => { void run(() => formsApi.importFor(form.id, r.orgId, file), '已代为填报'); return false; }}>
                    <Button type="link" size="small">代为填报</Button>
                  </Upload>
                )}
              </Space>
            ),
          },
        ]}
      />
      <Modal title={`退回：${returning?.orgName ?? ''}`} open={!!returning} okText="退回" okButtonProps={{ disabled: !comment.trim() }} onCancel={() => setReturning(undefined)}
        onOk={() => run(() => formsApi.decide(form.id, 'return', returning!.orgId, comment.trim()), '已退回').then(() => setReturning(undefined))}>
        <Input.TextArea aria-label="退回意见" placeholder="请填写退回意见" rows={3} maxLength={500} value={comment} onChange={(e) => setComment(e.target.value)} />
      </Modal>
      <Drawer title={viewing?.orgName ?? ''} open={!!viewing} width={720} onClose={() => setViewing(undefined)} destroyOnHidden>
        {viewing && <FillPanel formId={form.id} orgId={viewing.orgId} readOnly />}
      </Drawer>
    </>
  );
}
