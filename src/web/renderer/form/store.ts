/**
 * The state of one open form outside rjsf: current values, field errors, the active tab. Fields subscribe
 * with a selector and re-render only when what they selected changes, so a keystroke re-renders the
 * field typed in and nothing else (rjsf's own state change is the one commit).
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

  private emit(): void {
    for (const l of this.listeners) l();
  }

  /**
   * A field changed. The values are replaced quietly unless a watched field changed, so typing into an
   * ordinary field wakes no subscriber. Answers whether the field currently shows an error (the caller
   * then re-validates it).
   */
  change(name: string, value: unknown): boolean {
    const values = { ...this.state.values };
    if (value === undefined) delete values[name];
    else values[name] = value;
    this.state = { ...this.state, values };
    if (this.watched.has(name)) this.emit();
    return !!this.state.errors[name]?.length;
  }

  /** Replaces all values (rjsf's committed form data, with defaults it added). Quiet unless a watched value differs. */
  sync(values: Record<string, unknown>): void {
    const before = this.state.values;
    this.state = { ...this.state, values };
    if ([...this.watched].some((w) => before[w] !== values[w])) this.emit();
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

/** What a component reads from the form store; it re-renders only when the selected value changes (by Object.is). */
export function useFormStore<T>(store: FormStore, select: (state: FormStoreState) => T): T {
  // The selector's identity does not matter: it runs on each snapshot, and only its result is compared.
  const get = useCallback(() => select(store.snapshot()), [store, select]);
  return useSyncExternalStore(store.subscribe, get, get);
}
