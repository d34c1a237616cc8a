/**
 * The state of one open form: current values, field errors, the active tab. It is the form's data: the
 * widgets read their values here and write them here, and rjsf's own form data stays what the form was
 * opened with, so a keystroke makes rjsf do nothing (rjsf still lays out the fields, picks the widgets and
 * validates with its validator, on the values of this store). A widget subscribes to its own value only;
 * templates subscribe with a selector and re-render when what they selected changes. A keystroke thus
 * re-renders the field typed in and nothing else.
 */
import { useCallback, useSyncExternalStore } from 'react';

export interface FormStoreState {
  values: Record<string, unknown>;
  /** Field → Chinese messages shown under it. */
  errors: Record<string, string[]>;
  /** The tab shown (tabs layout). */
  tab: number;
}

export class FormStore {
  private state: FormStoreState;
  private readonly listeners = new Set<() => void>();
  private readonly fieldListeners = new Map<string, Set<() => void>>();
  /** Fields that others read (x-show-if, x-computed): a change to them is announced. */
  private readonly watched: ReadonlySet<string>;

  constructor(values: Record<string, unknown>, watched: Iterable<string>) {
    this.state = { values, errors: {}, tab: 0 };
    this.watched = new Set(watched);
  }

  get values(): Record<string, unknown> {
    return this.state.values;
  }

  get errors(): Record<string, string[]> {
    return this.state.errors;
  }

  snapshot = (): FormStoreState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Listens to one field's value (the widget showing it). */
  subscribeField(name: string, listener: () => void): () => void {
    let set = this.fieldListeners.get(name);
    if (!set) this.fieldListeners.set(name, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  private emit(): void {
    for (const l of this.listeners) l();
  }

  /**
   * A field changed: its own listeners hear it, everyone else only when it is a watched field, so typing
   * into an ordinary field wakes nothing but that field. Answers whether the field currently shows an
   * error (the caller then re-validates it).
   */
  change(name: string, value: unknown): boolean {
    if (Object.is(this.state.values[name], value)) return !!this.state.errors[name]?.length;
    const values = { ...this.state.values };
    if (value === undefined) delete values[name];
    else values[name] = value;
    this.state = { ...this.state, values };
    for (const l of this.fieldListeners.get(name) ?? []) l();
    if (this.watched.has(name)) this.emit();
    return !!this.state.errors[name]?.length;
  }

  /** Sets the messages of some fields (others keep theirs); an empty list clears a field. */
  setErrors(errors: Record<string, string[]>): void {
    const next = { ...this.state.errors };
    let changed = false;
    for (const [field, messages] of Object.entries(errors)) {
      const before = next[field] ?? [];
      if (before.join('\n') === messages.join('\n')) continue;
      changed = true;
      if (messages.length) next[field] = messages;
      else delete next[field];
    }
    if (!changed) return;
    this.state = { ...this.state, errors: next };
    this.emit();
  }

  /** Replaces every field's messages. */
  replaceErrors(errors: Record<string, string[]>): void {
    this.state = { ...this.state, errors };
    this.emit();
  }

  setTab(tab: number): void {
    if (tab === this.state.tab) return;
    this.state = { ...this.state, tab };
    this.emit();
  }
}

/** A field's current value; the component re-renders when (only when) this field's value changes. */
export function useFieldValue(store: FormStore, name: string): unknown {
  const subscribe = useCallback((listener: () => void) => store.subscribeField(name, listener), [store, name]);
  const get = useCallback(() => store.values[name], [store, name]);
  return useSyncExternalStore(subscribe, get, get);
}

/** What a component reads from the form store; it re-renders only when the selected value changes (by Object.is). */
export function useFormStore<T>(store: FormStore, select: (state: FormStoreState) => T): T {
  // The selector's identity does not matter: it runs on each snapshot, and only its result is compared.
  const get = useCallback(() => select(store.snapshot()), [store, select]);
  return useSyncExternalStore(store.subscribe, get, get);
}
