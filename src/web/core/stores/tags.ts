import { create } from 'zustand';

/** An open tab (spec §3 "open-tab entry"): path, title, the meta flags affix and noCache, and the route name. */
export interface TagView {
  path: string;
  /** The path with its query, as last visited: what clicking the tag opens. */
  fullPath: string;
  title: string;
  name: string;
  meta: { title?: string; affix?: boolean; noCache?: boolean };
}

export type NewTagView = Omit<TagView, 'title' | 'fullPath'> & { fullPath?: string };

interface TagsState {
  visitedViews: TagView[];
  /** Names of the views whose page stays mounted while another tab is active. */
  cachedViews: string[];
  addView(view: NewTagView): void;
  addVisitedView(view: NewTagView): void;
  addCachedView(view: NewTagView): void;
  delView(view: Pick<TagView, 'path' | 'name'>): void;
  delCachedView(view: Pick<TagView, 'name'>): void;
  delOthersViews(view: Pick<TagView, 'path' | 'name'>): void;
  delAllViews(): void;
  /** The user whose tags these are. */
  owner: number | undefined;
  /** Forgets every tag (logout: the next user starts afresh). */
  reset(): void;
  /** Makes `userId` the owner, dropping another user's tags (a new sign-in in the same tab). */
  claim(userId: number): void;
}

export const NO_NAME = 'no-name';

function toTag(view: NewTagView): TagView {
  return { path: view.path, fullPath: view.fullPath ?? view.path, title: view.meta.title || NO_NAME, name: view.name, meta: { ...view.meta } };
}

/** Visited and cached views. Affix tags never close; a path has one tag whatever its query. */
export const useTags = create<TagsState>((set, get) => ({
  visitedViews: [],
  cachedViews: [],
  addView(view) {
    get().addVisitedView(view);
    get().addCachedView(view);
  },
  addVisitedView(view) {
    set((s) => {
      const existing = s.visitedViews.find((v) => v.path === view.path);
      if (!existing) return { visitedViews: [...s.visitedViews, toTag(view)] };
      const fullPath = view.fullPath ?? view.path;
      return existing.fullPath === fullPath ? s : { visitedViews: s.visitedViews.map((v) => (v === existing ? { ...v, fullPath } : v)) };
    });
  },
  addCachedView(view) {
    set((s) => (view.meta.noCache || s.cachedViews.includes(view.name) ? s : { cachedViews: [...s.cachedViews, view.name] }));
  },
  delView(view) {
    set((s) => {
      const closing = s.visitedViews.find((v) => v.path === view.path);
      if (!closing || closing.meta.affix) return s;
      return { visitedViews: s.visitedViews.filter((v) => v !== closing), cachedViews: s.cachedViews.filter((n) => n !== closing.name) };
    });
  },
  delCachedView(view) {
    set((s) => ({ cachedViews: s.cachedViews.filter((n) => n !== view.name) }));
  },
  delOthersViews(view) {
    set((s) => {
      const visitedViews = s.visitedViews.filter((v) => v.meta.affix || v.path === view.path);
      const kept = new Set(visitedViews.map((v) => v.name));
      return { visitedViews, cachedViews: s.cachedViews.filter((n) => kept.has(n)) };
    });
  },
  delAllViews() {
    set((s) => {
      const visitedViews = s.visitedViews.filter((v) => v.meta.affix);
      const kept = new Set(visitedViews.map((v) => v.name));
      return { visitedViews, cachedViews: s.cachedViews.filter((n) => kept.has(n)) };
    });
  },
  owner: undefined,
  reset() {
    set({ visitedViews: [], cachedViews: [], owner: undefined });
  },
  claim(userId) {
    if (get().owner !== userId) set({ visitedViews: [], cachedViews: [], owner: userId });
  },
}));
