/**
 * An organisation fills its record: the form as the runtime renders it, 暂存 (STASHED_END) and 提交
 * (COLLECT_END); a returned answer shows the collector's comment; submitted, accepted or stopped it is
 * shown read-only. Works on a phone (the form's fields and the rows stack).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Skeleton, Space, Tag } from 'antd';
import type { AxiosError } from 'axios';
import { useMemo, useRef, useState } from 'react';
import { CollectStatus, ShareState } from '../../../shared/constants';
import type { ModuleSchema } from '../../../shared/module-schema/types';
import { errorText } from '../../core/request/request';
import { RecordForm, type FieldMessage, type RecordFormHandle } from '../../renderer/form/RecordForm';
import { FORMS_KEY, formsApi } from './api';
import { STATE_COLORS } from './states';

/** The form without the filling organisation (the server sets it to the organisation filling). */
function fillerSchema(schema: ModuleSchema): ModuleSchema {
  const { orgId: _org, ...properties } = schema.properties;
  return { ...schema, properties, required: (schema.required ?? []).filter((r) => r !== 'orgId') };
}

export function FillPanel({ formId, orgId, readOnly }: { formId: string; orgId?: number; readOnly?: boolean }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const form = useRef<RecordFormHandle>(null);
  const [busy, setBusy] = useState(false);
  const schema = useQuery({ queryKey: [FORMS_KEY, formId, 'schema'], queryFn: () => formsApi.schema(formId) });
  const answer = useQuery({ queryKey: [FORMS_KEY, formId, 'answer', orgId], queryFn: () => formsApi.answer(formId, orgId) });
  const shown = useMemo(() => (schema.data ? fillerSchema(schema.data) : undefined), [schema.data]);
  if (!shown || !answer.data) return <Skeleton active />;
  const a = answer.data;
  const open = !readOnly && a.shareState === ShareState.SHARING && a.state <= CollectStatus.STASHED_END;
  const send = async (submit: boolean) => {
    const values = submit ? form.current?.validate() : form.current?.values();
    if (!values) return;
    setBusy(true);
    try {
      await formsApi.fill(formId, values, submit, orgId);
      message.success(submit ? '已提交' : '已暂存');
      void queryClient.invalidateQueries({ queryKey: [FORMS_KEY] });
    } catch (error) {
      const body = (error as AxiosError<{ errors?: FieldMessage[] }>).response?.data;
      const rest = body?.errors ? form.current?.showErrors(body.errors) : undefined;
      if (!body?.errors || rest?.length) message.error(errorText(error as AxiosError<{ message?: string }>));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="forms-fill">
      <Space wrap style={{ marginBottom: 12 }}>
        <Tag color={STATE_COLORS[a.state]}>{a.stateLabel}</Tag>
        {a.deadline && <span>截止日期：{a.deadline}</span>}
        {a.shareState === ShareState.STOPPED && <Tag>已停止填报</Tag>}
      </Space>
      {a.comment && a.state === CollectStatus.STASHED_END && <Alert type="warning" showIcon style={{ marginBottom: 12 }} message="填报已退回" description={`退回意见：${a.comment}`} />}
      <RecordForm key={`${a.state}-${JSON.stringify(a.values).length}`} ref={form} schema={open ? shown : { ...shown, properties: Object.fromEntries(Object.entries(shown.properties).map(([k, f]) => [k, { ...f, readOnly: true }])) }} initialValues={a.values} />
      {open && (
        <div className="forms-fill-actions">
          <Button loading={busy} onClick={() => send(false)}>暂存</Button>
          <Button type="primary" loading={busy} onClick={() => send(true)}>提交</Button>
        </div>
      )}
    </div>
  );
}
