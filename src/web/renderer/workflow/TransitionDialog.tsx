/**
 * The dialog of one workflow step: where the record goes, the guards' warnings and what they would
 * refuse now, the step's fields (its own small form, validated like the record form) and the comment.
 * A refusal shows the rule's words; a conflict (someone took a step first) offers to reload.
 */
import { ExclamationCircleOutlined, ReloadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Input, Modal, Space, Tooltip, Typography } from 'antd';
import type { AxiosError } from 'axios';
import { useMemo, useRef, useState } from 'react';
import { stepSchema, type WorkflowSchema } from '../../../shared/module-schema/workflow';
import type { ModuleSchema } from '../../../shared/module-schema/types';
import { moduleKeys, type ModuleRecord } from '../api';
import { useConfirmDiscard } from '../../core/confirm-discard';
import { RecordForm, type FieldMessage, type RecordFormHandle } from '../form/RecordForm';
import { toFormData } from '../model';
import { workflowApi, type OpenStep } from './api';
import { StateTag } from './StateTag';

interface ErrorBody {
  message?: string;
  errors?: FieldMessage[];
  /** The guard that refused (its rule's words are the messages). */
  rule?: string;
}

const today = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

export function TransitionDialog({
  module,
  schema,
  record,
  step,
  onClose,
}: {
  module: string;
  schema: ModuleSchema;
  record: ModuleRecord;
  step: OpenStep;
  onClose: () => void;
}) {
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const workflow = schema['x-workflow'] as WorkflowSchema;
  const form = useRef<RecordFormHandle>(null);
  const [comment, setComment] = useState('');
  const confirmDiscard = useConfirmDiscard();
  const cancel = () => confirmDiscard(!!comment.trim() || (form.current?.changed() ?? false), onClose);
  const [saving, setSaving] = useState(false);
  const [refused, setRefused] = useState<string[]>();
  const [conflict, setConflict] = useState(false);
  // The step open from the record's state: steps sharing an id (approve at each level) take different fields.
  const state = record[workflow.stateField] as number;
  const formSchema = useMemo(() => (step.fields.length ? stepSchema(schema, step.id, state) : undefined), [schema, step, state]);
  // What the record holds for the step's fields, and today for a required date not filled in yet.
  const initial = useMemo(() => {
    if (!formSchema) return {};
    const values = toFormData(formSchema, record);
    for (const [name, f] of Object.entries(formSchema.properties)) {
      if (f.format === 'date' && formSchema.required?.includes(name) && values[name] === undefined) values[name] = today();
    }
    return values;
  }, [formSchema, record]);
  const commentRequired = step.comment === 'required';
  // The pre-check (the record as it is) refuses: no dead-end submit until the step's own values differ from it.
  const [edited, setEdited] = useState(false);
  const recheck = () => requestAnimationFrame(() => setEdited(form.current?.changed() ?? false));
  const precheckRefuses = step.blocked.length > 0 && !edited;
  const negative = step.result !== 'pass';

  const submit = async () => {
    const values = formSchema ? form.current?.validate() : {};
    if (!values || saving) return;
    if (commentRequired && !comment.trim()) {
      setRefused([`请填写${step.title}意见`]);
      return;
    }
    setSaving(true);
    setRefused(undefined);
    try {
      const answer = await workflowApi.take(module, record.id, step.id, { version: record.version, comment: comment.trim(), values });
      void queryClient.invalidateQueries({ queryKey: moduleKeys.all(module) });
      onClose();
      const notes = answer.notes ?? [];
      if (answer.warnings?.length) {
        modal.warning({
          title: `${step.title}已办理，以下情况已记入办理记录`,
          content: <ul className="wf-warning-list">{[...notes, ...answer.warnings].map((w) => <li key={w}>{w}</li>)}</ul>,
        });
      } else if (notes.length) {
        // A step's result (a count) is shown as its result, not as a warning.
        modal.success({ title: `${step.title}已办理`, className: 'wf-result', content: <ul className="wf-note-list">{notes.map((n) => <li key={n}>{n}</li>)}</ul> });
      } else message.success(`${step.title}办理成功`);
    } catch (error) {
      const e = error as AxiosError<ErrorBody>;
      const status = e.response?.status;
      const data = e.response?.data;
      if (status === 409) setConflict(true);
      else if (status === 400 && data?.errors?.length) {
        const unplaced = form.current?.showErrors(data.errors.filter((x) => x.field)) ?? data.errors;
        // A rule's refusal is shown in full above the form, field messages stay on their fields.
        const rest = (data.rule ? data.errors : [...unplaced, ...data.errors.filter((x) => !x.field)]).map((x) => x.message);
        setRefused(rest.length ? [...new Set(rest)] : undefined);
        if (!rest.length) message.error(data.message ?? '请检查填写的内容');
      } else setRefused([data?.message ?? '办理失败，请稍后重试']);
    } finally {
      setSaving(false);
    }
  };

  const reload = () => {
    void queryClient.invalidateQueries({ queryKey: moduleKeys.all(module) });
    onClose();
  };

  return (
    <Modal
      open
      title={step.title}
      width={formSchema && Object.keys(formSchema.properties).length > 6 ? 760 : 600}
      centered
      mask={{ closable: false }}
      keyboard={false}
      destroyOnHidden
      onCancel={cancel}
      className="rf-dialog wf-dialog"
      styles={{ body: { maxHeight: 'calc(100vh - 190px)', overflowY: 'auto', overflowX: 'hidden', paddingRight: 8 } }}
      footer={[
        <Button key="cancel" onClick={cancel}>
          取消
        </Button>,
        <Tooltip key="ok" title={precheckRefuses ? `按目前的信息办理将不被允许：${step.blocked.join('；')}` : undefined}>
          <Button type="primary" danger={negative} loading={saving} disabled={precheckRefuses} onClick={() => void submit()} className="wf-submit">
            {negative ? `确定${step.title}` : '确定办理'}
          </Button>
        </Tooltip>,
      ]}
    >
      <Space className="wf-step-head" wrap size={4}>
        <span>当前</span>
        <StateTag workflow={workflow} state={record[workflow.stateField]} />
        {step.to !== record[workflow.stateField] && (
          <>
            <span>→ 办理后</span>
            <StateTag workflow={workflow} state={step.to} />
          </>
        )}
        <Typography.Text type="secondary">办理层级：{step.levelTitle}</Typography.Text>
      </Space>
      {workflow.transitions[step.id]?.description && <Typography.Paragraph type="secondary" className="wf-step-description">{workflow.transitions[step.id].description}</Typography.Paragraph>}
      {conflict && (
        <Alert
          className="rf-alert"
          type="warning"
          showIcon
          icon={<ExclamationCircleOutlined />}
          title="该记录已被他人办理或修改"
          description="您的办理未提交。请刷新后查看最新状态。"
          action={
            <Button size="small" icon={<ReloadOutlined />} onClick={reload}>
              刷新
            </Button>
          }
        />
      )}
      {refused && <Alert className="rf-alert wf-refused" type="error" showIcon title="不能办理" description={<ul className="wf-warning-list">{refused.map((r) => <li key={r}>{r}</li>)}</ul>} />}
      {!refused && step.blocked.length > 0 && (
        <Alert
          className="rf-alert wf-blocked"
          type="error"
          showIcon
          title="按目前的信息办理将不被允许"
          description={
            <>
              <ul className="wf-warning-list">{step.blocked.map((r) => <li key={r}>{r}</li>)}</ul>
              {formSchema && <Typography.Text type="secondary">{edited ? '已修改办理信息，可再次提交，由系统重新检查。' : '修改下方的办理信息后可再提交。'}</Typography.Text>}
            </>
          }
        />
      )}
      {!!step.notes?.length && <Alert className="rf-alert wf-notes" type="info" showIcon title="说明" description={<ul className="wf-note-list">{step.notes.map((n) => <li key={n}>{n}</li>)}</ul>} />}
      {step.warnings.length > 0 && <Alert className="rf-alert" type="warning" showIcon title="请注意" description={<ul className="wf-warning-list">{step.warnings.map((r) => <li key={r}>{r}</li>)}</ul>} />}
      {/* No submit on Enter: a step is taken by its button only. */}
      {formSchema && (
        <div onChangeCapture={recheck} onClickCapture={recheck} onKeyUpCapture={recheck}>
          <RecordForm ref={form} schema={formSchema} initialValues={initial} recordValues={record} />
        </div>
      )}
      {step.comment !== 'none' && (
        <div className="wf-comment" data-field="comment">
          <label className={commentRequired ? 'wf-comment-label wf-required' : 'wf-comment-label'} htmlFor="wf-comment">
            办理意见
          </label>
          <Input.TextArea id="wf-comment" rows={3} maxLength={1000} showCount value={comment} onChange={(e) => setComment(e.target.value)} placeholder={commentRequired ? `请填写${step.title}的理由` : '选填'} />
        </div>
      )}
    </Modal>
  );
}
