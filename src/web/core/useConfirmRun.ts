import { App } from 'antd';
import type { ReactNode } from 'react';

export interface ConfirmRunOptions {
  title?: string;
  content: ReactNode;
  okText?: string;
  danger?: boolean;
  run: () => Promise<unknown>;
  /** The notice after success; the server's `message` when left out. */
  success?: string;
  after?: () => void;
}

/**
 * A confirm dialog that runs an action, then says so. Errors are already shown by the request layer
 * (spec §8), so a failure just closes the dialog.
 */
export function useConfirmRun() {
  const { modal, message } = App.useApp();
  return ({ title = '提示', content, okText = '确定', danger, run, success, after }: ConfirmRunOptions) =>
    modal.confirm({
      title,
      content,
      okText,
      cancelText: '取消',
      okButtonProps: { danger },
      mask: { closable: false },
      keyboard: false,
      onOk: async () => {
        try {
          const answer = await run();
          message.success(success ?? answerMessage(answer) ?? '操作成功');
          after?.();
        } catch {
          // Shown by the request layer.
        }
      },
    });
}

/** The `message` of a `{status, message}` answer, if it has one. */
export function answerMessage(answer: unknown): string | undefined {
  const message = typeof answer === 'object' && answer !== null ? (answer as { message?: unknown }).message : undefined;
  return typeof message === 'string' && message ? message : undefined;
}
