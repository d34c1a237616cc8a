import { SafetyCertificateOutlined } from '@ant-design/icons';
import { Alert, App, Button, Form, Input, Modal } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { checkPin } from '../../../shared/validators';
import { connectUkeyService, type UkeyConnection } from './connection';
import { KEY_LOCKED, ukeyStep, type UkeyInput, type UkeyView } from './controller';
import { emitUkeyValidated } from './events';
import { signOut } from './sign-out';
import { createTriesStore, pinPrompt } from './tries';

/** Spec §5: letters, digits or hyphen, at least 8 (`Pin码至少8位`); an empty PIN gets the same message. */
const pinRule = {
  validator: (_: unknown, value: string | undefined) => {
    const problem = checkPin(value ?? '');
    return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
  },
};

interface PinDialogProps {
  open: boolean;
  className: string;
  title: string;
  prompt: string;
  label: string;
  okText: string;
  error?: string;
  busy?: boolean;
  onSubmit: (pin: string) => void;
}

/** A PIN dialog that cannot be dismissed: the certificate must be confirmed before the app is used. */
function PinDialog({ open, className, title, prompt, label, okText, error, busy, onSubmit }: PinDialogProps) {
  const [form] = Form.useForm<{ pin: string }>();
  const submit = async () => {
    const { pin } = await form.validateFields().catch(() => ({ pin: undefined }));
    if (pin !== undefined) onSubmit(pin);
  };
  return (
    <Modal open={open} title={<><SafetyCertificateOutlined /> {title}</>} closable={false} mask={{ closable: false }} keyboard={false} destroyOnHidden className={`ukey-dialog ${className}`}
      footer={<Button type="primary" loading={busy} onClick={() => void submit()}>{okText}</Button>}>
      <p className="ukey-prompt">{prompt}</p>
      {error ? <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} /> : null}
      <Form form={form} onFinish={({ pin }) => onSubmit(pin)} autoComplete="off">
        <Form.Item name="pin" label={label} rules={[pinRule]} validateTrigger="onBlur">
          <Input.Password autoFocus placeholder="Pin码" maxLength={64} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The certificate client of spec §4 while a `useUkey` user is signed in. */
export default function UkeyClient() {
  const { modal } = App.useApp();
  const tries = useMemo(() => createTriesStore(window.localStorage), []);
  const [view, setView] = useState<UkeyView>({ kind: 'waiting' });
  const viewRef = useRef(view);
  const connection = useRef<UkeyConnection | undefined>(undefined);

  const dispatch = useCallback(
    (input: UkeyInput) => {
      const before = viewRef.current;
      const step = ukeyStep(before, input, tries);
      viewRef.current = step.view;
      setView(step.view);
      if (step.send) connection.current?.send(step.send);
      if (step.validated) emitUkeyValidated(step.validated);
      if (step.view.kind === 'ended' && before.kind !== 'ended') {
        connection.current?.close();
        modal.warning({ title: '提示', content: step.view.alert, okText: '确定', keyboard: false, mask: { closable: false }, onOk: signOut });
      }
    },
    [modal, tries],
  );

  useEffect(() => {
    const conn = connectUkeyService({ onFrame: (frame) => dispatch({ kind: 'frame', frame }), onUnreachable: () => dispatch({ kind: 'unreachable' }) });
    connection.current = conn;
    return () => {
      conn.close();
      connection.current = undefined;
    };
  }, [dispatch]);

  return (
    <>
      <PinDialog key={view.kind === 'pin' ? `${view.deviceId}:${view.tries}` : 'pin'} open={view.kind === 'pin'} className="ukey-pin" title="数字证书验证"
        prompt={view.kind === 'pin' ? pinPrompt(view.tries) : ''} label="Pin码" okText="确定"
        error={view.kind === 'pin' ? view.error : undefined} busy={view.kind === 'pin' && view.busy}
        onSubmit={(pin) => dispatch({ kind: 'submitPin', pin })} />
      <PinDialog key="unlock" open={view.kind === 'unlock'} className="ukey-unlock" title="uKey已锁定" prompt={KEY_LOCKED} label="新Pin码" okText="解锁"
        error={view.kind === 'unlock' ? view.error : undefined} busy={view.kind === 'unlock' && view.busy}
        onSubmit={(pin) => dispatch({ kind: 'submitNewPin', pin })} />
    </>
  );
}
