import { App, Modal } from 'antd';
import { useCallback } from 'react';

/** An empty value in any of its shapes: a field cleared again counts as unchanged. */
const isEmpty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

const canonical = (v: unknown): string =>
  JSON.stringify(v, (_key, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value as Record<string, unknown>).filter(([, x]) => !isEmpty(x)).sort(([a], [b]) => a.localeCompare(b)))
      : value,
  );

/** Whether a form's values differ from those it started with (key order and empty shapes aside). */
export function valuesDiffer(initial: Record<string, unknown> | undefined, current: Record<string, unknown> | undefined): boolean {
  return canonical(initial ?? {}) !== canonical(current ?? {});
}

/**
 * Closing a form (✕ or 取消): with changes it first asks 放弃修改？; without, it closes at once.
 * Outside antd's App (the login page) the static confirm stands in.
 */
export function useConfirmDiscard(): (changed: boolean, close: () => void) => void {
  const { modal } = App.useApp();
  return useCallback(
    (changed, close) => {
      if (!changed) return close();
      (modal?.confirm ?? Modal.confirm)({
        title: '放弃修改？',
        content: '填写的内容尚未保存，关闭后将丢失。',
        okText: '放弃修改',
        okButtonProps: { danger: true },
        cancelText: '继续填写',
        className: 'confirm-discard',
        onOk: close,
      });
    },
    [modal],
  );
}
