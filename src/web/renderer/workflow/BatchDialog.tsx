/**
 * Batch approval on a workflow list: one step for the selected records (with the same values and
 * comment), then the answer per record: done, or why not.
 */
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Modal, Select, Table, Tag } from 'antd';
import { useMemo, useRef, useState } from 'react';
import { stepSchema, transitionsOf, type WorkflowSchema } from '../../../shared/module-schema/workflow';
import type { ModuleSchema } from '../../../shared/module-schema/types';
import { checkPermission } from '../../core/Permission';
import { useSession } from '../../core/stores/session';
import { moduleKeys, type ModuleRecord } from '../api';
import { useConfirmDiscard } from '../../core/confirm-discard';
import { RecordForm, type RecordFormHandle } from '../form/RecordForm';
import { workflowApi, type BatchAnswer } from './api';

export function BatchDialog({ module, schema, records, onClose }: { module: string; schema: ModuleSchema; records: ModuleRecord[]; onClose: (done: boolean) => void }) {
  const workflow = schema['x-workflow'] as WorkflowSchema;
  const roles = useSession((s) => s.roles);
  const queryClient = useQueryClient();
  const form = useRef<RecordFormHandle>(null);
  const states = new Set(records.map((r) => r[workflow.stateField]));
  // Steps the caller holds that start from the state of at least one selected record.
  const steps = useMemo(
    () => transitionsOf(module, workflow).filter((t) => checkPermission(roles, [t.permission]) && t.from.some((f) => states.has(f))),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [module, workflow, roles, records],
  );
  const [stepId, setStepId] = useState<string | undefined>(steps[0]?.id);
  const [comment, setComment] = useState('');
  const confirmDiscard = useConfirmDiscard();
  const [running, setRunning] = useState(false);
  const [answer, setAnswer] = useState<BatchAnswer>();
  // Steps sharing an id (approve at each level) take different fields: the form is the one open from the
  // state of the first selected record the step applies to.
  const state = records.map((r) => r[workflow.stateField] as number).find((st) => steps.some((s) => s.id === stepId && s.from.includes(st)));
  const step = steps.find((s) => s.id === stepId && (state === undefined || s.from.includes(state)));
  const fields = useMemo(() => (step && (step.fields.length || Object.keys(step.stepFields).length) ? withoutFills(stepSchema(schema, step.id, state)) : undefined), [schema, step, state]);
  const applicable = records.filter((r) => steps.some((s) => s.id === stepId && s.from.includes(r[workflow.stateField] as number))).length;
  const names = new Map(records.map((r) => [r.id, String(r.name ?? r.id)]));

  const cancel = () => confirmDiscard(!!comment.trim() || (form.current?.changed() ?? false), () => onClose(false));

  const run = async () => {
    if (!step) return;
    const values = fields ? form.current?.validate() : {};
    if (!values) return;
    setRunning(true);
    try {
      setAnswer(await workflowApi.batch(module, step.id, { ids: records.map((r) => r.id), comment: comment.trim(), values }));
      void queryClient.invalidateQueries({ queryKey: moduleKeys.all(module) });
    } catch {
      // Shown by the request layer.
    } finally {
      setRunning(false);
    }
  };

  return (
    <Modal
      open
      title={`批量办理（已选 ${records.length} 条）`}
      width={720}
      centered
      mask={{ closable: false }}
      keyboard={false}
      destroyOnHidden
      onCancel={() => (answer ? onClose(true) : cancel())}
      className="wf-batch"
      footer={
        answer
          ? [<Button key="close" type="primary" onClick={() => onClose(true)}>关闭</Button>]
          : [
              <Button key="cancel" onClick={cancel}>取消</Button>,
              <Button key="ok" type="primary" loading={running} disabled={!step || !applicable} onClick={() => void run()} className="wf-batch-submit">
                确定办理
              </Button>,
            ]
      }
    >
      {answer ? (
        <>
          <Alert className="rf-alert" type={answer.failed ? 'warning' : 'success'} showIcon title={`办理完成：成功 ${answer.done} 条，未办理 ${answer.failed} 条`} />
          <Table
            size="small"
            rowKey="id"
            pagination={false}
            scroll={{ y: 360 }}
            dataSource={answer.results}
            columns={[
              { title: '姓名', dataIndex: 'id', width: 140, render: (id: number) => names.get(id) ?? id },
              { title: '结果', dataIndex: 'status', width: 90, render: (s: string) => <Tag color={s === 'done' ? 'success' : 'error'}>{s === 'done' ? '成功' : '未办理'}</Tag> },
              { title: '说明', dataIndex: 'message', render: (m: string, r) => [m, ...(r.notes ?? []), ...(r.warnings ?? [])].join('；') },
            ]}
          />
        </>
      ) : steps.length === 0 ? (
        <Alert type="info" showIcon title="所选记录当前没有您可以办理的步骤" />
      ) : (
        <Form layout="vertical" component="div">
          <Form.Item label="办理步骤" required>
            <Select
              value={stepId}
              onChange={setStepId}
              options={steps.map((s) => ({ value: s.id, label: s.title }))}
              className="wf-batch-step"
            />
          </Form.Item>
          <div className="wf-batch-count">{step && `其中 ${applicable} 条处于可办理“${step.title}”的状态，其余将说明原因`}</div>
          {fields && <RecordForm key={step!.id} ref={form} schema={fields} />}
          {step?.comment !== 'none' && (
            <Form.Item label="办理意见" required={step?.comment === 'required'}>
              <Input.TextArea rows={2} maxLength={1000} value={comment} onChange={(e) => setComment(e.target.value)} />
            </Form.Item>
          )}
        </Form>
      )}
    </Modal>
  );
}

/** One form for many records: nothing is filled in from one organisation (the records' differ). */
function withoutFills(schema: ModuleSchema): ModuleSchema {
  const { 'x-fill': _fill, ...rest } = schema;
  return rest;
}
