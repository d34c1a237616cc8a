import { Form, Modal, type FormInstance } from 'antd';
import type { AxiosError } from 'axios';
import { useState, type ReactNode } from 'react';
import { useConfirmDiscard } from '../../../core/confirm-discard';

interface FieldErrorBody {
  errors?: { field: string; message: string }[];
}

/** Puts the server's field errors (`{errors:[{field, message}]}`, spec §8) under the matching inputs. */
export function showServerErrors(form: FormInstance, error: unknown): void {
  const errors = (error as AxiosError<FieldErrorBody>)?.response?.data?.errors;
  if (!Array.isArray(errors)) return;
  const known = new Set(Object.keys(form.getFieldsValue(true) as object));
  form.setFields(errors.filter((e) => known.has(e.field.split('.')[0])).map((e) => ({ name: e.field.split('.'), errors: [e.message] })));
}

export interface FormModalProps<V> {
  open: boolean;
  title: string;
  form: FormInstance<V>;
  width?: number;
  labelWidth?: number;
  initialValues?: Partial<V>;
  /** Throws to keep the dialog open (the request layer has shown why). */
  onSubmit: (values: V) => Promise<void>;
  onCancel: () => void;
  children: ReactNode;
}

/** A dialog with a form: validates, submits with a loading button, maps server field errors; never closes on mask or Escape. */
export function FormModal<V extends object>({
  open,
  title,
  form,
  width = 520,
  labelWidth = 104,
  initialValues,
  onSubmit,
  onCancel,
  children,
}: FormModalProps<V>) {
  const [saving, setSaving] = useState(false);
  const confirmDiscard = useConfirmDiscard();

  const submit = async () => {
    let values: V;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    try {
      await onSubmit(values);
    } catch (error) {
      showServerErrors(form, error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={title}
      width={width}
      mask={{ closable: false }}
      keyboard={false}
      destroyOnHidden
      okText="确定"
      cancelText="取消"
      confirmLoading={saving}
      onOk={submit}
      onCancel={() => confirmDiscard(form.isFieldsTouched(), onCancel)}
    >
      <Form<V>
        form={form}
        initialValues={initialValues}
        labelCol={{ flex: `${labelWidth}px` }}
        labelWrap
        preserve={false}
        className="system-form"
        onFinish={submit}
      >
        {children}
        <button type="submit" hidden aria-hidden />
      </Form>
    </Modal>
  );
}
