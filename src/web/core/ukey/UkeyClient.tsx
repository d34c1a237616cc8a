import { SafetyCertificateOutlined } from '@ant-design/icons';
import { Alert, App, Button, Form, Input, Modal } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { checkPin } from '../../../shared/validators';
import { connectUkeyService, type UkeyConnection } from './connection';
import { KEY_LOCKED, ukeyStep, type UkeyInput, type UkeyView } from './controller';
import { emitUkeyValidated } from './events';
import type { ServiceFrame } from './protocol';
import { proofState, proveToServer, type ProofChannel, type ProofState } from './server-proof';
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
  /** Waiting for the key to sign the server's challenge (server-proof.ts). */
  const signWaiter = useRef<((frame: Extract<ServiceFrame, { type: 'signResult' }> | undefined) => void) | undefined>(undefined);
  /** What the server said when the client started: no proof wanted means the PIN alone validates, at once. */
  const serverState = useRef<ProofState | undefined>(undefined);
  useEffect(() => {
    proofState().then((state) => (serverState.current = state), () => undefined);
  }, []);
  const channel = useMemo<ProofChannel>(
    () => ({
      send: (frame) => connection.current?.send(frame),
      nextSignResult: (timeoutMs) =>
        new Promise((resolve) => {
          const timer = setTimeout(() => resolve(undefined), timeoutMs);
          signWaiter.current = (frame) => {
            clearTimeout(timer);
            signWaiter.current = undefined;
            resolve(frame);
          };
        }),
    }),
    [],
  );

  const dispatch = useCallback(
    (input: UkeyInput) => {
      const before = viewRef.current;
      const step = ukeyStep(before, input, tries);
      viewRef.current = step.view;
      setView(step.view);
      if (step.send) connection.current?.send(step.send);
      const end = (alert: string) => {
        connection.current?.close();
        modal.warning({ title: '提示', content: alert, okText: '确定', keyboard: false, mask: { closable: false }, onOk: signOut });
      };
      if (step.validated) {
        // The PIN is confirmed; where the server asks, the key signs its challenge before the pages open.
        const deviceId = step.validated;
        const known = serverState.current;
        if (known && (!known.required || known.verified)) emitUkeyValidated(deviceId);
        else void proveToServer(deviceId, channel)
          .catch(() => '无法完成uKey验证，请重新登录')
          .then((refused) => {
            if (!refused) return emitUkeyValidated(deviceId);
            viewRef.current = { kind: 'ended', alert: refused };
            setView(viewRef.current);
            end(refused);
          });
      }
      if (step.view.kind === 'ended' && before.kind !== 'ended') end(step.view.alert);
    },
    [modal, tries, channel],
  );

  useEffect(() => {
    const conn = connectUkeyService({
      onFrame: (frame) => (frame.type === 'signResult' ? signWaiter.current?.(frame) : dispatch({ kind: 'frame', frame })),
      onUnreachable: () => dispatch({ kind: 'unreachable' }) });
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
