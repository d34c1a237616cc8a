import type { useAppProps } from 'antd/es/app/context';

export type FeedbackApi = useAppProps;

/**
 * The antd message/notification/modal APIs bound to the app's theme and locale. The signed-in shell
 * registers them (App.useApp, see core/app-shell.tsx); code outside React (the request layer) uses them
 * from here. Pages outside the shell (the login page) get antd's static APIs, loaded on first use so
 * their code is not part of the login page's first download.
 */
let api: FeedbackApi | undefined;

export function setFeedback(value: FeedbackApi | undefined): void {
  api = value;
}

export function hasFeedback(): boolean {
  return api !== undefined;
}

/** Runs `use` with the shell's APIs at once, or with the static ones once they have loaded. */
export function showFeedback(use: (api: FeedbackApi) => void): void {
  if (api) return use(api);
  void import('./static-feedback').then((m) => use(m.staticFeedback));
}
