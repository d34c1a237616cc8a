/**
 * Where a to-do or a message opens on a phone (issue 31). To-dos and messages keep the desktop path they were made
 * with (`/development/process?id=5`, the desktop opens it as before); this ONE table maps what they carry to a screen
 * of the mobile terminal (a path under /web/m/). A link no rule knows opens the full site.
 */
import { ownValue } from './own.js';

/** What a to-do or message carries (msgTodo / msgPushHistory answers). */
export interface Linkable {
  link?: string | null;
  module?: string | null;
  refId?: string | null;
}

/**
 * The desktop pages of workflow records (`x-workflow.link`, else the menu page of `module:<id>`, with `?id=`), for
 * links that carry no module (made by hand, or opened from a message on a phone): path → module.
 */
const RECORD_PAGES: Record<string, string> = {
  '/development/process': 'development',
  '/transfer/in': 'transfer-in',
  '/transfer/out': 'transfer-out',
  '/transfer/internal': 'transfer-internal',
  '/transfer/floating': 'floating',
  '/cadre/selection': 'appointment',
  '/party-org/election/congress': 'congress',
  '/party-org/election/two-committee': 'election',
  '/service/evaluation/appraisal': 'appraisal',
  '/service/work/task': 'work-task',
};

type Rule = (item: Linkable, path: string, query: URLSearchParams) => string | null;

const RULES: { name: string; rule: Rule }[] = [
  // A workflow step's to-do: ref id `<record id>:<step id>` (runtime/workflow/engine.ts, updateTodos).
  { name: 'workflow step', rule: (t) => (t.module && /^(\d+):/.test(t.refId ?? '') ? `approvals/${encodeURIComponent(t.module)}/${/^(\d+)/.exec(t.refId!)![1]}` : null) },
  { name: 'workflow record page', rule: (_t, path, query) => (ownValue(RECORD_PAGES, path) && /^\d+$/.test(query.get('id') ?? '') ? `approvals/${ownValue(RECORD_PAGES, path)}/${query.get('id')}` : null) },
  // Already a screen of the mobile terminal (the dues reminder's link).
  { name: 'mobile', rule: (_t, path, query) => (path.startsWith('/m/') ? `${path.slice(3)}${query.toString() ? `?${query}` : ''}` : null) },
  { name: '我的党费', rule: (_t, path) => (path === '/party-dues/my' ? 'dues' : null) },
  { name: '消息中心', rule: (_t, path) => (path.startsWith('/message-center/') ? 'messages' : null) },
];

/** A link as the desktop app's path: without the `/web` base, which stored links may carry. */
function desktopPath(link: string): { path: string; query: URLSearchParams } | null {
  if (!link.startsWith('/') || link.startsWith('//')) return null;
  const url = new URL(link, 'http://x');
  const path = url.pathname === '/web' ? '/' : url.pathname.startsWith('/web/') ? url.pathname.slice(4) : url.pathname;
  return { path, query: url.searchParams };
}

/** The mobile screen (path under /web/m/, no leading slash) a to-do or message opens, or null: the full site. */
export function mobilePathOf(item: Linkable): string | null {
  const parsed = item.link ? desktopPath(item.link) : null;
  for (const { rule } of RULES) {
    const found = rule(item, parsed?.path ?? '', parsed?.query ?? new URLSearchParams());
    if (found !== null) return found.replace(/^\/+/, '');
  }
  return null;
}

/** The full site's address of a stored link (`/development/process?id=5` → `/web/development/process?id=5`). */
export function desktopUrlOf(link: string): string {
  const parsed = desktopPath(link);
  if (!parsed) return '/web/';
  const query = parsed.query.toString() ? `?${parsed.query}` : '';
  return `/web${parsed.path}${query}`;
}
