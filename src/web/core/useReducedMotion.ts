import { useSyncExternalStore } from 'react';

const QUERY = '(prefers-reduced-motion: reduce)';
const media = () => (typeof window === 'undefined' ? undefined : window.matchMedia?.(QUERY));

function subscribe(onChange: () => void): () => void {
  const query = media();
  query?.addEventListener?.('change', onChange);
  return () => query?.removeEventListener?.('change', onChange);
}

/**
 * Whether the user asked the system for less motion (WCAG 2.3.3). antd ignores the setting on its own, so
 * the app turns antd's zoom, slide and collapse animations off with it.
 */
export function useReducedMotion(): boolean {
  return useSyncExternalStore(subscribe, () => media()?.matches === true, () => false);
}
