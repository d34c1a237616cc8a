/**
 * The create/edit dialog of a module record: 700px, closed only by its buttons (never by the mask or
 * Escape; with changes it asks 放弃修改？ first). Saving sends the write body; server field messages land on their fields; a 409 (someone saved
 * first) keeps what the user typed on screen and offers 刷新 to load the current record.
 */
import { ExclamationCircleOutlined, ReloadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Modal, Result, Skeleton, Typography } from 'antd';
import type { AxiosError } from 'axios';
import { useMemo, useRef, useState } from 'react';
import { requiredLackedBy } from '../../../shared/module-schema/fields';
import type { ModuleSchema } from '../../../shared/module-schema/types';
import { recordFormSchema, spreadFormSchema } from '../../../shared/module-schema/workflow';
import { useConfirmDiscard } from '../../core/confirm-discard';
import { errorText } from '../../core/request/request';
import { moduleApi, moduleKeys, type ModuleRecord } from '../api';
import { displayText, toFormData, toWriteBody } from '../model';
import { RecordForm, type FieldMessage, type RecordFormHandle } from './RecordForm';

export interface FormDialogProps {
  module: string;
  schema: ModuleSchema;
  open: boolean;
  /** The record to edit (a list row is enough: the full record is loaded); none to create one. */
  editing?: { id: number };
  /** Values of a new record (a child's key to its parent). */
  preset?: Record<string, unknown>;
  presetNames?: Record<string, Record<number, string>>;
  /** Fields shown read-only. */
  fixed?: string[];
  onClose: () => void;
  onSaved?: (record: ModuleRecord) => void;
  /** Open without the zoom-in: it takes the place of a frame already on screen (ModulePage). */
  instant?: boolean;
}

interface ErrorBody {
  message?: string;
  errors?: FieldMessage[];
  current?: ModuleRecord;
}

/** Names of the referenced records of a record (`<field>Name`), by field and id, for the pickers. */
function refNamesOf(schema: ModuleSchema, record: Record<string, unknown> | undefined): Record<string, Record<number, string>> {
  const names: Record<string, Record<number, string>> = {};
  if (!record) return names;
  for (const [field, f] of Object.entries(schema.properties)) {
    const ids = ([] as unknown[]).concat(record[field] ?? []);
    const text = record[`${field}Name`];
    if (!f['x-ref'] || !ids.length || typeof text !== 'string') continue;
    const parts = text.split('、');
    names[field] = Object.fromEntries(ids.map((id, i) => [Number(id), parts[i] ?? String(id)]));
  }
  return names;
}

/** What the user had typed that differs from the record now stored: offered for copying after a conflict. */
function typedDifferences(schema: ModuleSchema, typed: Record<string, unknown>, current: ModuleRecord) {
  return Object.entries(schema.properties)
    .filter(([name, f]) => !f.readOnly && !f['x-computed'] && JSON.stringify(typed[name] ?? null) !== JSON.stringify(current[name] ?? null))
    .map(([name, f]) => ({ name, title: f.title, text: displayText(typed, name, f) || '（空）' }));
}

/**
 * A new record may leave its organisation (the x-scope field, referring to org) empty: the server gives it
 * the caller's own (docs/schema.md, x-scope), so the form does not ask for it first.
 */
function scopeDefaulted(schema: ModuleSchema): string[] | undefined {
  const scope = schema['x-scope'];
  return scope && schema.properties[scope]?.['x-ref'] === 'org' ? [scope] : undefined;
}

/** A preset value of the spread field is one of its values. */
function spreadPreset(preset: Record<string, unknown> | undefined, spread: string | undefined): Record<string, unknown> {
  const values = { ...preset };
  if (spread && values[spread] != null && !Array.isArray(values[spread])) values[spread] = [values[spread]];
  return values;
}

export function FormDialog({ module, schema, open, editing, preset, presetNames, fixed, onClose, onSaved, instant }: FormDialogProps) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const form = useRef<RecordFormHandle>(null);
  const confirmDiscard = useConfirmDiscard();
  const cancel = () => confirmDiscard(form.current?.changed() ?? false, onClose);
  const [saving, setSaving] = useState(false);
  const [conflict, setConflict] = useState<string>();
  const [kept, setKept] = useState<{ name: string; title: string; text: string }[]>();
  /** Bumped to start the form again from freshly loaded values. */
  const [generation, setGeneration] = useState(0);
  const recordQuery = useQuery({
    queryKey: moduleKeys.record(module, editing?.id ?? 0),
    queryFn: () => moduleApi.get(module, editing!.id),
    enabled: open && !!editing,
    staleTime: 0,
  });
  const record = editing ? recordQuery.data : undefined;
  const title = `${editing ? '编辑' : '新增'}${schema.title}`;
  // A workflow record's steps fill in their own fields: the record form leaves them out.
  // x-form.spread: a new record's spread field takes several values, one record per value.
  const spread = editing ? undefined : schema['x-form']?.spread;
  const formModule = useMemo(() => (spread ? spreadFormSchema(recordFormSchema(schema)) : recordFormSchema(schema)), [schema, spread]);

  const save = async () => {
    const values = form.current?.validate();
    if (!values || saving) return;
    setSaving(true);
    try {
      if (spread) {
        // One record per chosen value (none chosen: one record, the server's default, as a single form).
        const body = toWriteBody(formModule, values);
        const targets = [...new Set((body[spread] as number[] | null) ?? [])];
        const rows = targets.length ? targets.map((v) => ({ ...body, [spread]: v })) : [{ ...body, [spread]: null }];
        const answer = await moduleApi.createMany(module, rows);
        message.success(rows.length > 1 ? `已新增${answer.ids.length}条` : '新增成功');
        void queryClient.invalidateQueries({ queryKey: moduleKeys.all(module) });
        onClose();
        return;
      }
      const body = toWriteBody(schema, values, record && { id: record.id, version: record.version });
      const saved = record ? await moduleApi.update(module, body) : await moduleApi.create(module, body);
      message.success(record ? '修改成功' : '新增成功');
      void queryClient.invalidateQueries({ queryKey: moduleKeys.all(module) });
      onSaved?.(saved);
      onClose();
    } catch (error) {
      const e = error as AxiosError<ErrorBody>;
      const status = e.response?.status;
      const data = e.response?.data;
      if (status === 409) setConflict(data?.message || '数据已被他人修改');
      else if (status === 400 && data?.errors?.length) {
        const unplaced = form.current?.showErrors(data.errors) ?? [];
        message.error(unplaced[0]?.message ?? data.message ?? '请检查填写的内容');
      } else if (status !== 401 && status !== 403) message.error(errorText(e));
    } finally {
      setSaving(false);
    }
  };

  /** After a conflict: load the stored record, start the form from it, keep the user's differing input on show. */
  const refresh = async () => {
    if (!editing) return;
    const typed = { ...(form.current?.values() ?? {}) };
    const current = await queryClient.fetchQuery({
      queryKey: moduleKeys.record(module, editing.id),
      queryFn: () => moduleApi.get(module, editing.id),
      staleTime: 0,
    });
    setKept(typedDifferences(schema, typed, current));
    setConflict(undefined);
    setGeneration((g) => g + 1);
  };

  const body = () => {
    if (editing && recordQuery.isError) return <Result status="error" title="记录加载失败" subTitle="该记录可能已被删除，或您没有查看权限。" />;
    if (editing && !record) return <Skeleton active paragraph={{ rows: 8 }} />;
    const initial = record ? toFormData(formModule, record) : spreadPreset(preset, spread);
    return (
      <RecordForm
        key={`${record?.id ?? 'new'}-${record?.version ?? 0}-${generation}`}
        ref={form}
        schema={formModule}
        initialValues={initial}
        refNames={record ? refNamesOf(schema, record) : presetNames}
        fixed={fixed}
        optional={record ? requiredLackedBy(schema, record) : scopeDefaulted(schema)}
        onSubmit={() => void save()}
      />
    );
  };

  return (
    <Modal
      open={open}
      title={title}
      width={700}
      centered
      mask={{ closable: false }}
      keyboard={false}
      destroyOnHidden
      onCancel={cancel}
      className="rf-dialog"
      {...(instant && { transitionName: '', maskTransitionName: '' })}
      styles={{ body: { maxHeight: 'calc(100vh - 190px)', overflowY: 'auto', overflowX: 'hidden', paddingRight: 8 } }}
      footer={[
        <Button key="cancel" onClick={cancel}>
          取消
        </Button>,
        <Button key="save" type="primary" loading={saving} disabled={!!editing && !record} onClick={() => void save()}>
          保存
        </Button>,
      ]}
    >
      {conflict && (
        <Alert
          className="rf-alert"
          type="warning"
          showIcon
          icon={<ExclamationCircleOutlined />}
          title={conflict}
          description="保存前该记录已被他人修改，您的修改未保存。点击“刷新”载入最新数据，您填写的内容会列在表单上方，便于复制后重新填写。"
          action={
            <Button size="small" icon={<ReloadOutlined />} onClick={() => void refresh()}>
              刷新
            </Button>
          }
        />
      )}
      {kept && kept.length > 0 && (
        <Alert
          className="rf-alert rf-kept"
          type="info"
          closable={{ closeIcon: true, onClose: () => setKept(undefined) }}
          title="您刚才填写但未保存的内容"
          description={
            <dl className="rf-kept-list">
              {kept.map((k) => (
                <div key={k.name}>
                  <dt>{k.title}</dt>
                  <dd>
                    <Typography.Text copyable={{ text: k.text, tooltips: ['复制', '已复制'] }}>{k.text}</Typography.Text>
                  </dd>
                </div>
              ))}
            </dl>
          }
        />
      )}
      {open && body()}
    </Modal>
  );
}
