/**
 * `x-widget: "roster"` on an array reference field (attendance of a meeting): every record of the referenced
 * module in the form's organisation, as a checklist with 全选 / 清空 and the count — one tap per person
 * instead of a search per person, which is what makes recording on a phone quick. The organisation is
 * the form's `x-scope` value, matched against the referenced module's `x-scope` field (both empty: the
 * caller's own data scope, a branch secretary's branch). At most 500 records; beyond that the field
 * falls back to the searchable picker.
 */
import type { WidgetProps } from '@rjsf/utils';
import { useQuery } from '@tanstack/react-query';
import { Button, Checkbox, Empty, Space, Spin } from 'antd';
import { useMemo } from 'react';
import type { FieldSchema } from '../../../shared/module-schema/types';
import { moduleApi, moduleKeys, useModuleMeta, IN_PLACE } from '../api';
import { RefSelect, useIneligible } from '../pickers';
import { useFieldEligibility } from './eligibility';
import { useFieldHandlers, valueIn } from './context';
import { useFieldValue, useFormStore } from './store';
import './roster.css';

const MAX = 500;

export function RosterWidget(props: WidgetProps) {
  const { change, blur, ctx } = useFieldHandlers(props, true);
  const field = props.schema as unknown as FieldSchema;
  const ref = field['x-ref']!;
  const value = (useFieldValue(ctx.store, props.name) as number[] | undefined) ?? [];
  const scopeField = ctx.schema['x-scope'];
  const orgId = useFormStore(ctx.store, (s) => (scopeField ? valueIn(s.values, scopeField, ctx.recordValues) : undefined)) as number | undefined;
  const refMeta = useModuleMeta(ref, true);
  const refScope = refMeta.data?.schema['x-scope'];
  const nameField = refMeta.data?.schema['x-name-field'] ?? 'name';
  const roster = useQuery({
    queryKey: [...moduleKeys.all(ref), 'roster', refScope, orgId ?? null],
    queryFn: () => moduleApi.list(ref, refScope && orgId ? { [refScope]: orgId } : {}, { page: 0, size: MAX, sort: `${nameField},asc` }, IN_PLACE),
    enabled: !!refMeta.data,
    staleTime: 60_000,
  });
  const people = useMemo(() => (roster.data?.content ?? []).map((r) => ({ id: r.id as number, name: String(r[nameField] ?? r.id) })), [roster.data, nameField]);
  const eligibility = useFieldEligibility(ctx, props.name);
  const ineligible = useIneligible(eligibility, people.map((p) => p.id));
  // Who may not be listed is greyed out with the reason (a chosen one stays removable) and left out of 全选.
  const options = useMemo(
    () =>
      people.map((p) => {
        const reason = ineligible[p.id];
        return { value: p.id, label: reason ? <span title={reason} className="rf-roster-ineligible">{p.name}</span> : p.name, disabled: !!reason && !value.includes(p.id) };
      }),
    // value as text: a new array each render, equal content
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [people, ineligible, value.join(',')],
  );
  const excluded = people.filter((p) => ineligible[p.id]).length;
  const disabled = props.disabled || props.readonly;
  if (refMeta.isLoading || roster.isLoading) return <Spin size="small" />;
  // Too many to list, or not listable for the caller: the searchable picker.
  if (roster.isError || (roster.data?.totalElements ?? 0) > MAX) {
    return <RefSelect id={props.id} module={ref} multiple value={value} knownNames={ctx.refNames[props.name]} disabled={disabled} onChange={(v) => change(v)} onBlur={blur} eligibility={eligibility} />;
  }
  if (!options.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={scopeField && !orgId ? '请先选择组织' : '该组织暂无人员'} />;
  const known = new Set(options.map((o) => o.value));
  const others = value.filter((v) => !known.has(v));
  return (
    <div className="rf-roster" id={props.id}>
      <Space className="rf-roster-bar" wrap>
        <span className="rf-roster-count">
          已选 {value.length} / {options.length} 人
        </span>
        <Button size="small" disabled={disabled} onClick={() => change([...others, ...people.filter((p) => !ineligible[p.id]).map((p) => p.id)])}>
          全选
        </Button>
        <Button size="small" disabled={disabled} onClick={() => change(others)}>
          清空
        </Button>
        {excluded > 0 && <span className="rf-roster-count">{excluded} 人不能列入（灰色，悬停看原因）</span>}
      </Space>
      <Checkbox.Group className="rf-roster-list" value={value} options={options} disabled={disabled} onChange={(v) => change([...others, ...(v as number[])])} />
    </div>
  );
}
