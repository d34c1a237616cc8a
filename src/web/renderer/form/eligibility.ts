/**
 * `x-ref-eligible` in the form: the picker of a reference field asks the server who of the records it offers may
 * not be chosen now (`POST /api/m/{id}/eligible/{field}` with the declaration's `on` values) and greys them out
 * with the reason. The save's own guard still decides; a failed request greys out nobody.
 */
import { useMemo } from 'react';
import { post } from '../../core/request/request';
import type { Eligibility } from '../pickers';
import { valueIn, type RecordFormContext } from './context';
import { useFormStore } from './store';

export function useFieldEligibility(ctx: RecordFormContext, field: string): Eligibility | undefined {
  const spec = ctx.schema.properties[field]?.['x-ref-eligible'];
  const module = ctx.schema['x-id'];
  const on = useFormStore(ctx.store, (s) => JSON.stringify((spec?.on ?? []).map((n) => valueIn(s.values, n, ctx.recordValues) ?? null)));
  return useMemo(() => {
    if (!spec) return undefined;
    const values = Object.fromEntries(spec.on.map((n, i) => [n, (JSON.parse(on) as unknown[])[i]]));
    const url = `/api/m/${encodeURIComponent(module)}/eligible/${encodeURIComponent(field)}`;
    return {
      key: [module, field, on],
      ask: (ids: number[]) =>
        post<{ ineligible: Record<string, string> }>(url, { values, ids }, { inPlace: true, skipErrorNotify: true }).then(
          (r) => r.ineligible,
          () => ({}),
        ),
    };
  }, [spec, module, field, on]);
}
