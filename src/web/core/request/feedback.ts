import type { useAppProps } from 'antd/es/app/context';

/**
 * The antd message/notification/modal APIs bound to the app's theme and locale. The root component
 * registers them (App.useApp); code outside React (the request layer) uses them from here.
 */
let api: useAppProps | undefined;

export function setFeedback(value: useAppProps): void {
  api = value;
}

export function feedback(): useAppProps {
  if (!api) throw new Error('feedback used before the app mounted');
  return api;
}

export function hasFeedback(): boolean {
  return api !== undefined;
}
