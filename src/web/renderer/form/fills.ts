/**
 * `x-fill` in the form: when every `on` field of a fill has a value (the x-scope field may be empty: the caller's
 * own organisation) and one of them changes, the form asks the
 * server (`POST /api/m/{id}/fill/{name}`) and sets the `sets` fields it answers — a field the user changed since
 * the last fill keeps the user's value. A failed request fills nothing (the form works as without it).
 */
import { useEffect } from 'react';
import { isBlank } from '../../../shared/module-schema/fields';
import type { ModuleSchema } from '../../../shared/module-schema/types';
import { post } from '../../core/request/request';
import { valueIn } from './context';
import type { FormStore } from './store';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function useFills(schema: ModuleSchema, store: FormStore, enabled: boolean, recordValues?: Record<string, unknown>): void {
  useEffect(() => {
    const specs = schema['x-fill'] ?? [];
    if (!enabled || !specs.length) return;
    const asked = new Map<string, string>();
    const filled = new Map<string, unknown>();
    let alive = true;
    const check = () => {
      for (const spec of specs) {
        const on = Object.fromEntries(spec.on.map((n) => [n, valueIn(store.values, n, recordValues)]));
        const key = JSON.stringify(on);
        if (asked.get(spec.name) === key) continue;
        asked.set(spec.name, key);
        // An empty organisation (x-scope) is the caller's own, as on save.
        if (Object.entries(on).some(([n, v]) => n !== schema['x-scope'] && isBlank(v))) continue;
        post<{ values: Record<string, unknown> }>(`/api/m/${encodeURIComponent(schema['x-id'])}/fill/${encodeURIComponent(spec.name)}`, { values: on }, { inPlace: true, skipErrorNotify: true })
          .then(({ values }) => {
            // The user moved on meanwhile (another type or organisation): this answer is stale.
            if (!alive || asked.get(spec.name) !== key) return;
            for (const [name, value] of Object.entries(values)) {
              if (!spec.sets.includes(name)) continue;
              // A value the user gave (not the last fill's) stays.
              const now = store.values[name];
              if (!isBlank(now) && !(filled.has(name) && same(now, filled.get(name)))) continue;
              filled.set(name, value);
              store.change(name, value);
            }
          })
          .catch(() => undefined);
      }
    };
    check();
    const stop = store.subscribe(check);
    return () => {
      alive = false;
      stop();
    };
  }, [schema, store, enabled, recordValues]);
}
