import { useSyncExternalStore } from 'react';

/** The one query list the app watches (made on first use: there is no window at import in every test). */
let query: MediaQueryList | undefined;
const media = () => (query ??= typeof window === 'undefined' ? undefined : window.matchMedia?.('(prefers-reduced-motion: reduce)'));

function subscribe(onChange: () => void): () => void {
  media()?.addEventListener?.('change', onChange);
  return () => media()?.removeEventListener?.('change', onChange);
}

/**
 * Whether the user asked the system for less motion (WCAG 2.3.3). antd ignores the setting on its own, so
 * the app turns antd's zoom, slide and collapse animations off with it.
 */
export function useReducedMotion(): boolean {
  return useSyncExternalStore(subscribe, () => media()?.matches === true, () => false);
}
